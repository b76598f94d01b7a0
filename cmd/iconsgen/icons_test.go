package main

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed icons must match the design; PNGs are compared by pixels,
// not bytes, since zlib output may differ between Go versions.
func TestCommittedIconsAreUpToDate(t *testing.T) {
	const hint = "run `go generate ./cmd/iconsgen`"
	svg, err := os.ReadFile("../../static/icon.svg")
	require.NoError(t, err, hint)
	assert.Equal(t, string(SVG()), string(svg), hint)

	for name, want := range map[string]*image.NRGBA{
		"icon-192.png":          Image(192, false),
		"icon-512.png":          Image(512, false),
		"icon-maskable-512.png": Image(512, true),
	} {
		b, err := os.ReadFile(filepath.Join("../../static", name))
		require.NoError(t, err, hint)
		got, err := png.Decode(bytes.NewReader(b))
		require.NoError(t, err, name)
		require.Equal(t, want.Bounds(), got.Bounds(), name)
		// Opaque files decode as RGBA; convert so both compare as NRGBA.
		n := image.NewNRGBA(got.Bounds())
		draw.Draw(n, n.Bounds(), got, image.Point{}, draw.Src)
		assert.True(t, bytes.Equal(want.Pix, n.Pix), "%s pixels differ: %s", name, hint)
	}
}

func TestDesign(t *testing.T) {
	img := Image(512, false)
	assert.Zero(t, img.NRGBAAt(0, 0).A, "rounded corner is transparent")
	assert.Equal(t, bg, img.NRGBAAt(256, 20), "background")
	assert.Equal(t, leaked, img.NRGBAAt(44+2*112+44, 156+112+44), "the leaked slot")
	assert.Equal(t, slot, img.NRGBAAt(44+44, 156+44), "first slot")

	m := Image(512, true)
	assert.Equal(t, bg, m.NRGBAAt(0, 0), "maskable bleeds to the edge")
	// Every slot pixel lies inside the safe circle (radius 40% of the size).
	slots := design(true)[1:]
	require.Len(t, slots, 8, "the eight slots of the pool")
	for _, r := range slots {
		for _, p := range [][2]float64{{r.x, r.y}, {r.x + r.w, r.y}, {r.x, r.y + r.h}, {r.x + r.w, r.y + r.h}} {
			dx, dy := p[0]-256, p[1]-256
			assert.LessOrEqual(t, dx*dx+dy*dy, 204.8*204.8)
		}
	}
}
