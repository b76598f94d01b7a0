package wasmsize

import "errors"

var errTruncated = errors.New("truncated")

// reader walks a byte slice; the first error sticks and reads after it
// return zeros, so a caller checks err once at the end of a structure.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.err = errTruncated
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

// uleb reads an unsigned LEB128 of at most 64 bits.
func (r *reader) uleb() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	if r.err == nil {
		r.err = errors.New("LEB128 longer than 64 bits")
	}
	return 0
}

// count reads a vector length, bounded by the bytes left (every element
// takes at least one), so a corrupt length cannot make a huge loop.
func (r *reader) count() int {
	n := r.uleb()
	if r.err == nil && n > uint64(len(r.b)-r.off) {
		r.err = errTruncated
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

func (r *reader) name() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.b[r.off : r.off+n])
	r.off += n
	return s
}

// limits skips a table's or memory's limits: a flag, a minimum, maybe a maximum.
func (r *reader) limits() {
	if r.byte()&1 == 1 {
		r.uleb()
	}
	r.uleb()
}
