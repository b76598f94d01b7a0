package e2e

import (
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestSmoke loads the generated site the way a reader would: the wasm app
// starts, nothing errors, and the main control is there.
func TestSmoke(t *testing.T) {
	t.Parallel()
	url := serveSite(t)
	b := newBrowser(t)
	b.Open(url)

	ids := run(b, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("#send")].map(e => e.tagName)`))
	assert.Equal(t, []string{"BUTTON"}, ids, "exactly one #send button")
	assert.Equal(t, "KV-cache leak playground", run(b, chromedp.Title()))

	b.Screenshot(filepath.Join(repoRoot(t), "build", "screenshots", "smoke.png"), 0)
}
