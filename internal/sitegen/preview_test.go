package sitegen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// go-app writes a tag's attributes in either order; the tags follow
// og:image either way, and a page without og:image is an error, not a
// preview without its card.
func TestPreviewTags(t *testing.T) {
	for _, tag := range []string{
		`<meta property="og:image" content="https://x.org/web/preview.png">`,
		`<meta content="https://x.org/web/preview.png" property="og:image">`,
	} {
		out, err := previewTags([]byte("<head>"+tag+"\n<title>"), `B's "leak" <7>`)
		require.NoError(t, err, tag)
		og := ogContent(string(out))
		assert.Equal(t, "https://x.org/web/preview.png", og["og:image"], tag)
		assert.Equal(t, "https://x.org/web/preview.png", og["twitter:image"], tag)
		assert.Equal(t, `B's "leak" <7>`, og["og:image:alt"], "escaped and read back: %s", out)
		assert.Equal(t, "summary_large_image", og["twitter:card"])
		assert.Contains(t, string(out), tag+`<meta property="og:image:type" content="image/png">`, "right after og:image")
	}
	_, err := previewTags([]byte(`<head><meta property="og:title" content="x">`), "alt")
	assert.ErrorContains(t, err, "no og:image tag")
}
