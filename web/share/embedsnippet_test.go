package share

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The snippet sizes its frame unless asked not to: its script believes a
// height message only from the link's origin, and only the playground's
// frames (data-kvleak) are resized.
func TestSnippetScriptSizesOnlyPlaygroundFrames(t *testing.T) {
	const link = "https://kv.example:8443/docs/?v=3&preset=demo&embed=1"
	s := embedChoice{}.snippet(link)
	frame, script, ok := strings.Cut(s, "\n")
	assert.True(t, ok, "an iframe, then its script: %s", s)
	assert.Equal(t, `<iframe src="`+link+`" title="KV-cache leak playground" width="100%" height="700" style="border:0" loading="lazy" data-kvleak></iframe>`, frame)
	assert.Contains(t, script, `e.origin !== "https://kv.example:8443"`)
	assert.Contains(t, script, `e.data.type === "kvleak:height"`)
	assert.Contains(t, script, `iframe[data-kvleak]`)
	assert.True(t, strings.HasPrefix(script, "<script>") && strings.HasSuffix(script, "</script>"))

	fixed := embedChoice{panel: "pool", theme: "dark", readOnly: true, fixed: true}.snippet(link)
	assert.NotContains(t, fixed, "<script>", "a fixed height is the bare iframe")
	assert.Contains(t, fixed, `&view=pool&theme=dark&ro=1" `)
	assert.Contains(t, fixed, `height="520"`)
}
