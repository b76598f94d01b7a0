package model

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// Whatever the pool and the box: every page has a pixel, the map drawn in
// the box is at most MapMaxHeight tall and no wider than the box, a pixel
// is at most MapMaxScale CSS pixels, and it folds no more pages to a pixel
// than it must.
func TestMapLayoutFitsItsBox(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 9))
	sizes := []int{MapFrom, 4_095, 65_536, 172_800, engine.GLMLaunchPoolTokens, engine.GLMDecodePoolTokens, 2_040_000, engine.MaxPoolPages}
	for range 200 {
		sizes = append(sizes, MapFrom+r.IntN(engine.MaxPoolPages-MapFrom))
	}
	for _, pages := range sizes {
		for _, width := range []int{1, 120, 296, 330, 458, 480, 867, 1500} {
			l := LayOutMap(pages, width)
			name := []any{fmt.Sprintf("%d pages in %d px: %+v", pages, width, l)}
			require.Equal(t, pages, l.Pages, name...)
			require.GreaterOrEqual(t, l.Width*l.Height*l.PerPixel, pages, name...)
			require.Less(t, (l.Height-1)*l.Width*l.PerPixel, pages, "no empty row", name)
			require.LessOrEqual(t, l.Width, width, name...)
			require.LessOrEqual(t, l.CSSHeight(width), float64(MapMaxHeight), name...)
			if l.PerPixel > 1 {
				assert.Equal(t, width, l.Width, name...)
				assert.Greater(t, pages, (l.PerPixel-1)*width*MapMaxHeight, "a page fewer a pixel would not fit", name)
			} else {
				assert.LessOrEqual(t, float64(width)/float64(l.Width), float64(MapMaxScale), name...)
			}
		}
	}
	// The launch preset at the desktop's box and the phone's.
	assert.Equal(t, MapLayout{Pages: 1_048_576, Width: 458, Height: 328, PerPixel: 7}, LayOutMap(1_048_576, 458))
	assert.Equal(t, MapLayout{Pages: 681_280, Width: 296, Height: 329, PerPixel: 7}, LayOutMap(681_280, 296))
	assert.Equal(t, MapLayout{}, LayOutMap(0, 458))
}

// A pixel's first page, the pixels of a run's rows and of changed pages
// agree with each other.
func TestMapLayoutFindsPagesAndPixels(t *testing.T) {
	l := LayOutMap(engine.GLMDecodePoolTokens, 458) // 7 pages a pixel
	assert.Equal(t, 0, l.PageAt(0, 0))
	assert.Equal(t, 7*457, l.PageAt(457, 0))
	assert.Equal(t, 7*458, l.PageAt(0, 1))
	assert.Equal(t, engine.GLMDecodePoolTokens-1, l.PageAt(5000, 5000), "clamped to the pool")
	assert.Equal(t, 0, l.PageAt(-3, -3), "clamped to the pool")

	// Pages 1–4,095: pixels 0–585, rows 0 (458 pixels) and 1 (128).
	assert.Equal(t, [][3]int{{0, 0, 458}, {0, 1, 128}}, l.Rows(1, 4095))
	assert.Equal(t, [][3]int{{1, 0, 1}}, l.Rows(7, 13))
	for _, row := range l.Rows(1000, 300_000) {
		for x := row[0]; x < row[0]+row[2]; x++ {
			p := l.PageAt(x, row[1])
			assert.True(t, p+l.PerPixel > 1000 && p <= 300_000, "pixel %d,%d: page %d", x, row[1], p)
		}
	}
	assert.Equal(t, [][2]int{{0, 585}, {1000, 1000}}, l.Pixels(engine.Pages{{First: 1, Count: 4095}, {First: 7000, Count: 3}}))
	assert.Equal(t, [][2]int{{0, 2}}, l.Pixels(engine.Pages{{First: 0, Count: 7}, {First: 7, Count: 14}}), "neighbours merged")
}
