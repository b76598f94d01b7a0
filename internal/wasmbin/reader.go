// Package wasmbin reads and writes the pieces of the WebAssembly binary
// format that the build's wasm tools need: LEB128 numbers, vectors, names
// and the top-level sections. It checks the structure it walks and no more.
package wasmbin

import "errors"

// ErrTruncated is a read past the end of the bytes.
var ErrTruncated = errors.New("truncated")

// Magic is the start of every wasm module this package reads: "\0asm",
// version 1.
const Magic = "\x00asm\x01\x00\x00\x00"

// Reader walks a byte slice; the first error sticks and reads after it
// return zeros, so a caller checks Err once at the end of a structure.
type Reader struct {
	B   []byte
	Off int
	Err error
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.Err != nil || r.Off >= len(r.B) {
		r.Err = ErrTruncated
		return 0
	}
	r.Off++
	return r.B[r.Off-1]
}

// ULEB reads an unsigned LEB128 of at most 64 bits.
func (r *Reader) ULEB() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.Byte()
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	if r.Err == nil {
		r.Err = errors.New("LEB128 longer than 64 bits")
	}
	return 0
}

// SLEB reads a signed LEB128 of at most 64 bits.
func (r *Reader) SLEB() int64 {
	var v int64
	for shift := 0; shift < 64; shift += 7 {
		c := r.Byte()
		v |= int64(c&0x7f) << shift
		if c < 0x80 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v
		}
	}
	if r.Err == nil {
		r.Err = errors.New("LEB128 longer than 64 bits")
	}
	return 0
}

// Count reads a vector length, bounded by the bytes left (every element
// takes at least one), so a corrupt length cannot make a huge loop.
func (r *Reader) Count() int {
	n := r.ULEB()
	if r.Err == nil && n > uint64(len(r.B)-r.Off) {
		r.Err = ErrTruncated
	}
	if r.Err != nil {
		return 0
	}
	return int(n)
}

// Bytes reads n bytes, sharing the reader's slice.
func (r *Reader) Bytes(n int) []byte {
	if r.Err == nil && (n < 0 || n > len(r.B)-r.Off) {
		r.Err = ErrTruncated
	}
	if r.Err != nil {
		return nil
	}
	r.Off += n
	return r.B[r.Off-n : r.Off]
}

// Name reads a length-prefixed string.
func (r *Reader) Name() string {
	return string(r.Bytes(r.Count()))
}

// Limits skips a table's or memory's limits: a flag, a minimum, maybe a maximum.
func (r *Reader) Limits() {
	if r.Byte()&1 == 1 {
		r.ULEB()
	}
	r.ULEB()
}
