package main

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"strings"
	"testing"

	"kvleak/internal/preview"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font"
)

// What is drawn as the verdict is the scene's verdict, all of it, on lines
// that fit the box; a long verdict takes a smaller size.
func TestLayoutDrawsTheVerdict(t *testing.T) {
	f, err := newFaces()
	require.NoError(t, err)
	sizes := map[string]float64{}
	for _, slug := range []string{"demo", "late-write"} {
		s, err := preview.Preset(slug)
		require.NoError(t, err)
		p, err := layout(s, f)
		require.NoError(t, err, slug)
		assert.Equal(t, s.Verdict, strings.Join(p.verdict, " "), slug)
		inner := p.verdictBox.Dx() - verdictBar - 2*verdictPad
		for _, line := range p.verdict {
			assert.LessOrEqual(t, font.MeasureString(p.face, line).Ceil(), inner, "%s: %q", slug, line)
		}
		assert.LessOrEqual(t, p.verdictBox.Max.Y, verdictBottom, slug)
		sizes[slug] = p.size
	}
	assert.Equal(t, verdictSizes[0], sizes["demo"], "the demo's verdict is drawn at the largest size")
	assert.Less(t, sizes["late-write"], sizes["demo"], "the long verdict takes a smaller size")

	_, err = layout(preview.Scene{}, f)
	assert.ErrorContains(t, err, "0 tiles")
}

// The preview is 1200 × 630, and the leaked pages look different from the
// page that is not: the leak outline and stripes, the same on each.
func TestPreviewMarksTheLeakedPages(t *testing.T) {
	s, err := preview.Preset("demo")
	require.NoError(t, err)
	b, err := PNG(s)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 1200, 630), img.Bounds())

	f, err := newFaces()
	require.NoError(t, err)
	p, err := layout(s, f)
	require.NoError(t, err)
	var leaked, clean []image.Rectangle
	for i, tile := range s.Tiles {
		if tile.Leaked {
			leaked = append(leaked, p.tiles[i])
		} else {
			clean = append(clean, p.tiles[i])
		}
	}
	require.Len(t, leaked, 7)
	require.Len(t, clean, 1)

	for _, r := range leaked {
		assert.Greater(t, share(img, r, leakColor), 0.15, "leaked tile at %v: the leak outline, letter and !", r)
		assert.Equal(t, marking(img, leaked[0]), marking(img, r), "leaked tile at %v carries the same marking", r)
		assert.NotEqual(t, marking(img, clean[0]), marking(img, r), "leaked tile at %v looks like the clean one", r)
	}
	assert.Zero(t, share(img, clean[0], leakColor), "the clean tile has no leak colour")
	assert.Equal(t, tenantColors[1], rgba(img, mid(clean[0]).Add(image.Pt(0, 60))), "page 0 is tenant B's colour")
}

// share is the fraction of r's pixels that are exactly c.
func share(img image.Image, r image.Rectangle, c color.RGBA) float64 {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgba(img, image.Pt(x, y)) == c {
				n++
			}
		}
	}
	return float64(n) / float64(r.Dx()*r.Dy())
}

// marking is the tile's edge and lower-left corner, where no letter falls:
// its outline and background pattern.
func marking(img image.Image, r image.Rectangle) []color.RGBA {
	var out []color.RGBA
	for y := r.Max.Y - 40; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Min.X+40; x++ {
			out = append(out, rgba(img, image.Pt(x, y)))
		}
	}
	return out
}

func rgba(img image.Image, p image.Point) color.RGBA {
	return color.RGBAModel.Convert(img.At(p.X, p.Y)).(color.RGBA)
}

// The committed picture is the demo run drawn now; pixels are compared, not
// bytes, since zlib output may differ between Go versions.
func TestCommittedPreviewIsUpToDate(t *testing.T) {
	const hint = "run `go generate ./cmd/previewgen`"
	s, err := preview.Preset("demo")
	require.NoError(t, err)
	want, err := Draw(s)
	require.NoError(t, err)
	b, err := os.ReadFile("../../static/preview.png")
	require.NoError(t, err, hint)
	got, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err, hint)
	require.Equal(t, want.Bounds(), got.Bounds(), hint)
	rgba := image.NewRGBA(got.Bounds())
	draw.Draw(rgba, rgba.Bounds(), got, image.Point{}, draw.Src)
	assert.True(t, bytes.Equal(want.Pix, rgba.Pix), "static/preview.png's pixels differ from the demo run's: %s", hint)
}
