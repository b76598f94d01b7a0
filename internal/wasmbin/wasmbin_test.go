package wasmbin

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLEB128RoundTrips(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, 64, -64, -65, 127, 128, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64} {
		r := &Reader{B: AppendSLEB(nil, v)}
		assert.Equal(t, v, r.SLEB(), "sleb %d", v)
		require.NoError(t, r.Err)
		assert.Equal(t, len(r.B), r.Off, "sleb %d: all bytes read", v)
	}
	for _, v := range []uint64{0, 1, 127, 128, math.MaxUint32, math.MaxUint64} {
		r := &Reader{B: AppendULEB(nil, v)}
		assert.Equal(t, v, r.ULEB(), "uleb %d", v)
		require.NoError(t, r.Err)
	}
	// The encodings wasm tools write: -1 and 64 as signed, 624485 as unsigned.
	assert.Equal(t, []byte{0x7f}, AppendSLEB(nil, -1))
	assert.Equal(t, []byte{0xc0, 0x00}, AppendSLEB(nil, 64))
	assert.Equal(t, []byte{0xe5, 0x8e, 0x26}, AppendULEB(nil, 624485))
}

func TestReaderErrorsStick(t *testing.T) {
	r := &Reader{B: []byte{0x80}}
	assert.Zero(t, r.ULEB())
	assert.ErrorIs(t, r.Err, ErrTruncated)
	assert.Zero(t, r.Byte(), "reads after an error return zeros")
	r = &Reader{B: []byte{5, 'a'}}
	assert.Empty(t, r.Name())
	assert.ErrorIs(t, r.Err, ErrTruncated, "a name longer than the bytes left")
	r = &Reader{B: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}}
	r.SLEB()
	assert.EqualError(t, r.Err, "LEB128 longer than 64 bits")
}

func TestSectionsSplitsAModule(t *testing.T) {
	b := AppendSection([]byte(Magic), 1, []byte{0})
	b = AppendSection(b, 0, []byte("\x01x"))
	s, err := Sections(b)
	require.NoError(t, err)
	assert.Equal(t, []Section{{1, []byte{0}}, {0, []byte("\x01x")}}, s)
	_, err = Sections(b[:len(b)-1])
	assert.EqualError(t, err, "section at offset 11: truncated")
	_, err = Sections([]byte("\x00asm\x02\x00\x00\x00"))
	assert.EqualError(t, err, "not a wasm module (version 1)")
}

func FuzzSLEB(f *testing.F) {
	f.Add(int64(-12345))
	f.Fuzz(func(t *testing.T, v int64) {
		r := &Reader{B: AppendSLEB(nil, v)}
		assert.Equal(t, v, r.SLEB())
		assert.NoError(t, r.Err)
	})
}
