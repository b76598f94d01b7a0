package headless

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

func TestOptionsAppendExtras(t *testing.T) {
	base := Options("/usr/bin/chromium", "/tmp/p", 800, 600)
	more := Options("/usr/bin/chromium", "/tmp/p", 800, 600, chromedp.Flag("x", true))
	assert.Len(t, more, len(base)+1)
	assert.Greater(t, len(base), len(chromedp.DefaultExecAllocatorOptions))
}
