package dom

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

// The pool map is drawn in Go, so its colours are written twice: here and
// in the stylesheet's custom properties. This holds them together.
func TestMapPaletteIsTheStylesheets(t *testing.T) {
	css, err := os.ReadFile("../../static/app.css")
	require.NoError(t, err)
	for scheme, pal := range map[int]mapPalette{0: lightMap, 1: darkMap} {
		want := map[string]rgb{"free": pal.free, "leak": pal.leak, "text": pal.ring}
		for i, tc := range pal.tenants {
			want[fmt.Sprintf("t%d", i)] = tc
		}
		require.Len(t, want, 11)
		for prop, col := range want {
			m := regexp.MustCompile(`--` + prop + `: light-dark\(#([0-9a-f]{6}), #([0-9a-f]{6})\)`).FindStringSubmatch(string(css))
			require.NotNil(t, m, "--%s", prop)
			assert.Equal(t, m[1+scheme], fmt.Sprintf("%02x%02x%02x", col[0], col[1], col[2]), "--%s, scheme %d", prop, scheme)
		}
	}
}

func TestMapPixelsMarkStatesNotByColourAlone(t *testing.T) {
	owned := func(state byte, tenant int) byte { return state | byte(tenant+1)<<2 }
	v := model.PoolMapView{Pages: 8, Map: []byte{
		owned(model.MapLeaked, 0), owned(model.MapAllocated, 1), owned(model.MapStale, 1), owned(model.MapStale, 1),
		model.MapFree, model.MapFree, model.MapFree, model.MapFree,
	}}
	px := mapPixels(nil, v, model.MapLayout{Pages: 8, Width: 4, Height: 2, PerPixel: 1}, lightMap)
	require.Len(t, px, 4*8)
	at := func(i int) rgb { return rgb{px[4*i], px[4*i+1], px[4*i+2]} }
	assert.Equal(t, lightMap.leak, at(0))
	assert.Equal(t, lightMap.tenants[1], at(1), "B's allocated page in B's colour")
	assert.Equal(t, lightMap.tenants[1], at(2), "a stale page: B's colour on even squares…")
	assert.Equal(t, lightMap.free, at(3), "…and the free colour on odd ones: a checkerboard")
	assert.Equal(t, lightMap.free, at(4))
	assert.Equal(t, byte(255), px[3], "opaque")

	px = mapPixels(px, v, model.MapLayout{Pages: 8, Width: 2, Height: 1, PerPixel: 4}, darkMap)
	require.Len(t, px, 4*2)
	assert.Equal(t, darkMap.leak, rgb{px[0], px[1], px[2]}, "a folded pixel shows its most telling page: the leak")
	assert.Equal(t, darkMap.free, rgb{px[4], px[5], px[6]})

	v.Colours = []int{3, 5}
	px = mapPixels(px, v, model.MapLayout{Pages: 8, Width: 4, Height: 2, PerPixel: 1}, lightMap)
	assert.Equal(t, lightMap.tenants[5], rgb{px[4], px[5], px[6]}, "the engine's second tenant in the colour the grid gives it")
}
