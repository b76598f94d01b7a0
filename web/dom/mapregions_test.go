package dom

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

// A map's spans are written as the model words them, each value escaped
// (a tenant's name is text); their pages are buttons only where they zoom.
func TestMapRegionsHTMLWritesTheModelsWordsAsText(t *testing.T) {
	s := model.NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	r := s.PoolMap().Regions
	out := MapRegionsHTML("pool-map-regions", r.Items, true)
	assert.Equal(t, len(r.Items), strings.Count(out, `<li class="region region-`))
	assert.Equal(t, len(r.Items), strings.Count(out, `<button type="button" class="link region-pages"`))
	leaked := 0
	for _, it := range r.Items {
		assert.Contains(t, out, `data-first="`+strconv.Itoa(it.First)+`" data-last="`+strconv.Itoa(it.Last)+`">`+it.Pages+`</button>`)
		assert.Contains(t, out, `<span class="region-whose">`+it.Whose+`</span>`)
		if it.Leaked {
			leaked++
		}
	}
	assert.Equal(t, leaked, strings.Count(out, "⚠ LEAKED"))
	assert.Zero(t, strings.Count(MapRegionsHTML("prefill-map-regions", r.Items, false), "<button"), "prefill's spans zoom nothing")

	bad := []model.MapRegion{{Pages: "pages 1–2", Whose: `tenant <img src=x onerror=alert(1)> · r1`, Now: `"free"`, State: "free", Tenant: -1}}
	out = MapRegionsHTML(`x" onclick="alert(1)`, bad, false)
	assert.NotContains(t, out, "<img")
	assert.NotContains(t, out, `" onclick="`)
	assert.Contains(t, out, "tenant &lt;img src=x onerror=alert(1)&gt; · r1")
}
