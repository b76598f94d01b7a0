// Package wasmdata rewrites a wasm module's data section into a few large
// segments, for a smaller download.
//
// Go's linker writes a segment for every stretch of data between two runs
// of eight or more zero bytes, to keep the raw wasm small: tens of
// thousands of segments in the playground's. Each one's header (an offset
// and a length) is close to random for brotli, which ships the zeros
// themselves for almost nothing, so writing the zeros back and the segments
// as one makes the raw wasm larger and its brotli smaller
// (docs/performance.md has the figures). The memory the module starts with
// is byte for byte the same: fresh wasm memory is zeros, and the segments
// hold what the linker wrote, at its offsets.
package wasmdata

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"kvleak/internal/wasmbin"
)

// MaxGap is the longest run of zeros written back to join two segments.
// Past it a new segment is cheaper in the raw bytes (which the browser
// keeps as the module's wire bytes) and costs brotli only its header.
const MaxGap = 4096

const (
	dataSection      = 11
	dataCountSection = 12
	opI32Const       = 0x41
	opEnd            = 0x0b
)

// Stats says what Merge did.
type Stats struct {
	Before, After int // data segments
	ZerosAdded    int // zero bytes written back between segments
}

// segment is an active segment of memory 0 with a constant offset.
type segment struct {
	offset int64
	data   []byte
}

// Merge returns the module with its data segments joined wherever at most
// MaxGap zero bytes lie between them; every other section is copied as it
// is. It refuses segments it cannot place (passive ones, another memory, an
// offset that is not a constant, overlaps) rather than guess.
func Merge(module []byte) ([]byte, Stats, error) {
	sections, err := wasmbin.Sections(module)
	if err != nil {
		return nil, Stats{}, err
	}
	var st Stats
	var merged []segment
	found := false
	for _, s := range sections {
		if s.ID != dataSection {
			continue
		}
		if found {
			return nil, st, errors.New("two data sections")
		}
		found = true
		segs, err := readSegments(s.Payload)
		if err != nil {
			return nil, st, fmt.Errorf("data section: %w", err)
		}
		st.Before = len(segs)
		merged, st.ZerosAdded = join(segs)
		st.After = len(merged)
	}
	out := append(make([]byte, 0, len(module)+st.ZerosAdded), wasmbin.Magic...)
	for _, s := range sections {
		switch s.ID {
		case dataSection:
			out = wasmbin.AppendSection(out, s.ID, writeSegments(merged))
		case dataCountSection:
			if !found {
				return nil, st, errors.New("a data count section without a data section")
			}
			out = wasmbin.AppendSection(out, s.ID, wasmbin.AppendULEB(nil, uint64(len(merged))))
		default:
			out = wasmbin.AppendSection(out, s.ID, s.Payload)
		}
	}
	return out, st, nil
}

func readSegments(payload []byte) ([]segment, error) {
	r := &wasmbin.Reader{B: payload}
	n := r.Count()
	segs := make([]segment, 0, n)
	for i := range n {
		if flags := r.ULEB(); r.Err == nil && flags != 0 {
			return nil, fmt.Errorf("segment %d: kind %d (only active segments of memory 0 are placed)", i, flags)
		}
		if op := r.Byte(); r.Err == nil && op != opI32Const {
			return nil, fmt.Errorf("segment %d: offset is not an i32.const", i)
		}
		off := r.SLEB()
		if r.Err == nil && (off < math.MinInt32 || off > math.MaxInt32) {
			return nil, fmt.Errorf("segment %d: offset %d is not an i32", i, off)
		}
		if end := r.Byte(); r.Err == nil && end != opEnd {
			return nil, fmt.Errorf("segment %d: offset is not a constant", i)
		}
		data := r.Bytes(r.Count())
		if r.Err != nil {
			return nil, fmt.Errorf("segment %d: %w", i, r.Err)
		}
		// i32.const is signed; the address is its 32 bits unsigned.
		segs = append(segs, segment{offset: int64(uint32(off)), data: data})
	}
	if r.Off != len(payload) {
		return nil, fmt.Errorf("%d bytes after the last segment", len(payload)-r.Off)
	}
	slices.SortStableFunc(segs, func(a, b segment) int { return cmp.Compare(a.offset, b.offset) })
	for i := 1; i < len(segs); i++ {
		if prev := segs[i-1]; prev.offset+int64(len(prev.data)) > segs[i].offset {
			return nil, fmt.Errorf("segments at %#x and %#x overlap", prev.offset, segs[i].offset)
		}
	}
	if len(segs) > 0 {
		if last := segs[len(segs)-1]; last.offset+int64(len(last.data)) > 1<<32 {
			return nil, fmt.Errorf("segment at %#x ends past 4 GiB", last.offset)
		}
	}
	return segs, nil
}

// join merges sorted, disjoint segments across gaps of at most MaxGap.
func join(segs []segment) ([]segment, int) {
	var out []segment
	zeros := 0
	for _, s := range segs {
		if n := len(out); n > 0 {
			last := &out[n-1]
			gap := int(s.offset - last.offset - int64(len(last.data)))
			if gap <= MaxGap {
				last.data = append(last.data, make([]byte, gap)...)
				last.data = append(last.data, s.data...)
				zeros += gap
				continue
			}
		}
		out = append(out, segment{offset: s.offset, data: slices.Clone(s.data)})
	}
	return out, zeros
}

func writeSegments(segs []segment) []byte {
	size := 8
	for _, s := range segs {
		size += 16 + len(s.data)
	}
	b := wasmbin.AppendULEB(make([]byte, 0, size), uint64(len(segs)))
	for _, s := range segs {
		b = append(b, 0, opI32Const)
		b = wasmbin.AppendSLEB(b, int64(int32(uint32(s.offset))))
		b = append(b, opEnd)
		b = wasmbin.AppendULEB(b, uint64(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}
