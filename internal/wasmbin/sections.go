package wasmbin

import (
	"errors"
	"fmt"
)

// Section is one top-level section of a module, its payload sharing the
// module's bytes.
type Section struct {
	ID      byte
	Payload []byte
}

// Sections splits a module into its top-level sections, in order.
func Sections(b []byte) ([]Section, error) {
	if len(b) < len(Magic) || string(b[:len(Magic)]) != Magic {
		return nil, errors.New("not a wasm module (version 1)")
	}
	r := &Reader{B: b, Off: len(Magic)}
	var out []Section
	for r.Off < len(r.B) {
		start := r.Off
		id := r.Byte()
		size := r.ULEB()
		if r.Err != nil || size > uint64(len(r.B)-r.Off) {
			return nil, fmt.Errorf("section at offset %d: truncated", start)
		}
		out = append(out, Section{ID: id, Payload: r.Bytes(int(size))})
	}
	return out, nil
}
