package wasmdata

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/wasmbin"
)

// seg is a test segment: data at an offset.
type seg struct {
	off  uint32
	data string
}

// dataPayload writes segments as Go's linker does: active, memory 0,
// i32.const offset.
func dataPayload(segs ...seg) []byte {
	b := wasmbin.AppendULEB(nil, uint64(len(segs)))
	for _, s := range segs {
		b = append(b, 0, opI32Const)
		b = wasmbin.AppendSLEB(b, int64(int32(s.off)))
		b = append(b, opEnd)
		b = wasmbin.AppendULEB(b, uint64(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

// module is a wasm with a few sections around the data section, so the
// test sees them copied through untouched.
func module(data []byte) []byte {
	b := []byte(wasmbin.Magic)
	b = wasmbin.AppendSection(b, 1, []byte{1, 0x60, 0, 0})   // type: () -> ()
	b = wasmbin.AppendSection(b, 10, []byte{1, 2, 0, opEnd}) // code: one empty body
	b = wasmbin.AppendSection(b, dataSection, data)
	b = wasmbin.AppendSection(b, 0, append([]byte{4}, "name\x00\x00"...)) // custom
	return b
}

// image is the memory a module starts with: its non-zero bytes and their
// addresses, in address order (sparse: a segment may sit near 4 GiB).
func image(t *testing.T, module []byte) []cell {
	t.Helper()
	var mem []cell
	for _, g := range dataOf(t, module) {
		for i, c := range g.data {
			if c != 0 {
				mem = append(mem, cell{g.offset + int64(i), c})
			}
		}
	}
	return mem
}

type cell struct {
	addr int64
	b    byte
}

func dataOf(t *testing.T, module []byte) []segment {
	t.Helper()
	sections, err := wasmbin.Sections(module)
	require.NoError(t, err)
	for _, s := range sections {
		if s.ID == dataSection {
			segs, err := readSegments(s.Payload)
			require.NoError(t, err)
			return segs
		}
	}
	return nil
}

func TestMergeJoinsSegmentsAcrossShortRunsOfZeros(t *testing.T) {
	in := module(dataPayload(
		seg{100, "abc"},
		seg{111, "de"},                     // 8 zeros after "abc": joined
		seg{113 + MaxGap, "f"},             // exactly MaxGap zeros: joined
		seg{114 + 2*MaxGap + 1, "gh"},      // MaxGap+1 zeros: a new segment
		seg{0xffff_fff0, "top of memory!"}, // an offset past 2 GiB, negative as an i32
	))
	out, st, err := Merge(in)
	require.NoError(t, err)
	assert.Equal(t, Stats{Before: 5, After: 3, ZerosAdded: 8 + MaxGap}, st)
	assert.Equal(t, image(t, in), image(t, out), "the memory the module starts with")

	segs := dataOf(t, out)
	require.Len(t, segs, 3)
	assert.Equal(t, int64(100), segs[0].offset)
	assert.Equal(t, "abc"+string(make([]byte, 8))+"de"+string(make([]byte, MaxGap))+"f", string(segs[0].data))
	assert.Equal(t, int64(114+2*MaxGap+1), segs[1].offset)
	assert.Equal(t, int64(0xffff_fff0), segs[2].offset)

	// Every other section comes through byte for byte, in its place.
	before, err := wasmbin.Sections(in)
	require.NoError(t, err)
	after, err := wasmbin.Sections(out)
	require.NoError(t, err)
	require.Len(t, after, len(before))
	for i := range before {
		assert.Equal(t, before[i].ID, after[i].ID)
		if before[i].ID != dataSection {
			assert.Equal(t, before[i].Payload, after[i].Payload, "section %d", before[i].ID)
		}
	}
}

func TestMergeSortsSegmentsTheLinkerWroteOutOfOrder(t *testing.T) {
	in := module(dataPayload(seg{50, "later"}, seg{10, "first"}, seg{30, "middle"}))
	out, st, err := Merge(in)
	require.NoError(t, err)
	assert.Equal(t, 1, st.After)
	assert.Equal(t, image(t, in), image(t, out))
}

func TestMergeKeepsTheDataCountTrue(t *testing.T) {
	b := []byte(wasmbin.Magic)
	b = wasmbin.AppendSection(b, dataCountSection, []byte{3})
	b = wasmbin.AppendSection(b, dataSection, dataPayload(seg{0, "a"}, seg{2, "b"}, seg{9000, "c"}))
	out, st, err := Merge(b)
	require.NoError(t, err)
	require.Equal(t, 2, st.After)
	sections, err := wasmbin.Sections(out)
	require.NoError(t, err)
	assert.Equal(t, []byte{2}, sections[0].Payload)
}

func TestMergeLeavesAModuleWithoutDataAsItIs(t *testing.T) {
	b := []byte(wasmbin.Magic)
	b = wasmbin.AppendSection(b, 1, []byte{0})
	out, st, err := Merge(b)
	require.NoError(t, err)
	assert.Equal(t, b, out)
	assert.Equal(t, Stats{}, st)
}

func TestMergeRefusesWhatItCannotPlace(t *testing.T) {
	passive := wasmbin.AppendULEB(nil, 1)
	passive = append(passive, 1, 1, 'x') // flags 1: passive, 1 byte
	otherMemory := []byte{1, 2, 1, opI32Const, 0, opEnd, 1, 'x'}
	globalOffset := []byte{1, 0, 0x23, 0, opEnd, 1, 'x'} // global.get 0
	longOffset := []byte{1, 0, opI32Const, 0, 0x01, opEnd, 1, 'x'}
	wideOffset := append([]byte{1, 0, opI32Const}, wasmbin.AppendSLEB(nil, 1<<32)...)
	wideOffset = append(wideOffset, opEnd, 1, 'x')
	for name, c := range map[string]struct {
		module []byte
		want   string
	}{
		"not wasm":          {[]byte("\x00asn\x01\x00\x00\x00"), "not a wasm module"},
		"passive":           {module(passive), "kind 1"},
		"another memory":    {module(otherMemory), "kind 2"},
		"global offset":     {module(globalOffset), "not an i32.const"},
		"two-op offset":     {module(longOffset), "not a constant"},
		"64-bit offset":     {module(wideOffset), "offset 4294967296 is not an i32"},
		"overlap":           {module(dataPayload(seg{0, "abcd"}, seg{3, "x"})), "overlap"},
		"past 4 GiB":        {module(dataPayload(seg{0xffff_fffe, "abc"})), "past 4 GiB"},
		"truncated data":    {module(dataPayload(seg{0, "abc"})[:6]), "truncated"},
		"bytes after":       {module(append(dataPayload(seg{0, "a"}), 0)), "1 bytes after"},
		"truncated section": {trimEnd(module(dataPayload(seg{0, "abc"}))), "truncated"},
		"two data sections": {wasmbin.AppendSection(module(dataPayload()), dataSection, dataPayload()), "two data sections"},
		"count, no data":    {wasmbin.AppendSection([]byte(wasmbin.Magic), dataCountSection, []byte{0}), "without a data section"},
	} {
		t.Run(name, func(t *testing.T) {
			out, _, err := Merge(c.module)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Nil(t, out)
		})
	}
}

// trimEnd cuts a module's last section short.
func trimEnd(b []byte) []byte { return b[:len(b)-3] }

// A random layout, like the linker's: data runs with zero runs between
// them, long and short, some segments holding zeros at their ends.
func TestMergeKeepsTheMemoryOfRandomLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		var segs []seg
		off := uint32(rng.IntN(5000))
		for range rng.IntN(40) {
			data := make([]byte, 1+rng.IntN(30))
			for j := range data {
				if rng.IntN(4) > 0 {
					data[j] = byte(rng.IntN(256))
				}
			}
			segs = append(segs, seg{off, string(data)})
			off += uint32(len(data))
			switch rng.IntN(3) {
			case 0:
				off += uint32(rng.IntN(16))
			case 1:
				off += uint32(rng.IntN(2 * MaxGap))
			}
		}
		rng.Shuffle(len(segs), func(a, b int) { segs[a], segs[b] = segs[b], segs[a] })
		in := module(dataPayload(segs...))
		out, st, err := Merge(in)
		require.NoError(t, err, "layout %d", i)
		assert.Equal(t, image(t, in), image(t, out), "layout %d", i)
		assert.Equal(t, len(segs), st.Before)
		again, st2, err := Merge(out)
		require.NoError(t, err)
		assert.Equal(t, out, again, "merging twice changes nothing more (layout %d)", i)
		assert.Equal(t, Stats{Before: st.After, After: st.After}, st2)
	}
}

// Any bytes: an error or a module that starts with the same memory.
func FuzzMerge(f *testing.F) {
	f.Add(module(dataPayload(seg{0, "a"}, seg{9, "b"})))
	f.Add(module(dataPayload(seg{0xffff_fff0, "top"}, seg{4, "lo"})))
	f.Add([]byte(wasmbin.Magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, st, err := Merge(b)
		if err != nil {
			assert.Nil(t, out)
			return
		}
		assert.Equal(t, image(t, b), image(t, out), fmt.Sprintf("%x", b))
		assert.LessOrEqual(t, st.After, st.Before)
	})
}
