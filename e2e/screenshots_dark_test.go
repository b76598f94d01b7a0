package e2e

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestScreenshotsDark saves the demo, the real-scale preset and the views
// of shootViews in the dark colour scheme at desktop and phone widths, for
// a human to look at, and checks that the page did take the dark colours.
func TestScreenshotsDark(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.emulateMedia("prefers-color-scheme", "dark")
	site := serveSite(t)
	b.Open(site)
	assert.Equal(t, "rgb(21, 22, 26)", evalJS[string](b, `getComputedStyle(document.body).backgroundColor`), "the dark --bg")
	dir := filepath.Join(repoRoot(t), "build", "screenshots")
	b.Screenshot(filepath.Join(dir, "desktop-dark.png"), 1280)
	b.Screenshot(filepath.Join(dir, "phone-dark.png"), phoneWidth)
	choosePreset(b, "glm-launch")
	waitFor(b, "the pool map", jsExists(`#pool-map`))
	b.Screenshot(filepath.Join(dir, "desktop-dark-glm-launch.png"), 1280)
	b.Screenshot(filepath.Join(dir, "phone-dark-glm-launch.png"), phoneWidth)
	choosePreset(b, "symmetric")
	b.Screenshot(filepath.Join(dir, "desktop-dark-symmetric.png"), 1280)
	b.Screenshot(filepath.Join(dir, "phone-dark-symmetric.png"), phoneWidth)
	shootViews(t, b, site, dir, "-dark")
	shootMaps(t, b, site, dir, "-dark")
}
