//go:build !testhooks

package widget

// The shipped build arms no panic (testpanic_testhooks.go arms them for the
// browser tests).

func TestPanic(where string) {}
