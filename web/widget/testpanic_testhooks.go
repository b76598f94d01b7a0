//go:build testhooks

package widget

// armed are the places the next pass through panics (kvleakTest.arm in
// web/hooks_testhooks.go).
var armed = map[string]bool{}

// TestPanic panics once where armed, to prove the panic is contained.
func TestPanic(where string) {
	if armed[where] {
		delete(armed, where)
		panic("test hook: armed panic in " + where)
	}
}

// Arm makes the next pass through where panic.
func Arm(where string) { armed[where] = true }
