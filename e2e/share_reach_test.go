package e2e

import (
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// "Share / Embed" sits by the intro, on the first screen, and takes the
// reader to the share panel; the snippet has a Copy button, and the panel
// links the example page that sizes its frame.
func TestShareAndEmbedFromTheTop(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	setClipboard(b, site, cdpbrowser.PermissionSettingGranted)
	b.Open(site + "?" + demoQuery)
	require.True(t, evalJS[bool](b, `!!document.querySelector(".intro #share-jump")`), "Share / Embed in the intro")
	top := stillRect(b, "#share-jump")
	assert.True(t, top.Bottom <= float64(viewH), "on the first screen: %s", top)

	b.Do(evalVoid(`document.getElementById("share-jump").focus()`))
	pressKeys(b, "\r")
	share := stillRect(b, "#share")
	assert.True(t, share.Top > -1 && share.Top < float64(viewH), "the share panel comes into view: %s", share)
	waitFor(b, "the focus in the share panel", `document.getElementById("share").contains(document.activeElement)`)

	example := evalJS[string](b, `(document.querySelector("#share a[href$='embed-example.html']") || {}).href || ""`)
	require.NotEmpty(t, example, "the share panel links embed-example.html")
	assert.Equal(t, 200, run(b, chromedp.Evaluate[int](`fetch(`+jsLit(example)+`).then(r => r.status)`, chromedp.EvalAwaitPromise)), "and the page is there")
	assert.Equal(t, "_blank", evalJS[string](b, `document.querySelector("#share a[href$='embed-example.html']").target`), "in a new tab")

	clickSel(b, "#embed")
	waitFor(b, "the snippet", jsExists("#embed-snippet"))
	clickSel(b, "#copy-snippet")
	waitFor(b, "the snippet copied", `(document.querySelector("#share-msg") || {}).textContent?.includes("copied")`)
	snippet := valueOf(b, "#embed-snippet")
	clip := clipboardAfter(b, snippet, func() { clickSel(b, "#copy-snippet") })
	assert.Equal(t, snippet, clip, "the clipboard holds the snippet")
}
