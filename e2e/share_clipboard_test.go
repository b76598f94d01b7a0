package e2e

import (
	"time"

	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyLinkWith opens the demo with the clipboard granted or denied to
// its origin, so that "Copy link" takes one path on purpose, and presses it.
func copyLinkWith(t *testing.T, setting cdpbrowser.PermissionSetting) (*browser, pageView) {
	t.Helper()
	site := serveTestHooks(t)
	b := newBrowser(t)
	setClipboard(b, site, setting)
	b.Open(site + "?" + demoQuery)
	waitShows(b, "the demo", expectAt(t, "demo", 0))
	b.Do(chromedp.Click(chromedp.ID("copy-link")))
	// The page says "copied" only once the clipboard's promise resolves,
	// after "ready below": wait for a message that is not the interim one,
	// or, where the clipboard refuses, for the page to have settled.
	if setting == cdpbrowser.PermissionSettingDenied {
		waitView(b, "#share-msg", func(s pageView) bool { return s.ShareMsg != "" })
		settle(b)
	}
	s := waitView(b, "#share-msg", func(s pageView) bool {
		return s.ShareMsg != "" && (s.ShareMsg != "Link ready below." || setting == cdpbrowser.PermissionSettingDenied)
	})
	assert.Equal(t, site+"?"+demoQuery, s.ShareURL, "#share-url holds the permalink")
	return b, s
}

// TestCopyLinkWithClipboard: with the clipboard granted, the link is on
// the clipboard and the message says so.
func TestCopyLinkWithClipboard(t *testing.T) {
	t.Parallel()
	b, s := copyLinkWith(t, cdpbrowser.PermissionSettingGranted)
	assert.Equal(t, "Link copied to the clipboard.", s.ShareMsg)
	clip := clipboardAfter(b, s.ShareURL, func() { b.Do(chromedp.Click(chromedp.ID("copy-link"))) })
	assert.Equal(t, s.ShareURL, clip, "the clipboard holds the link")
}

// clipboardAfter reads the clipboard, and while it does not hold want,
// copies again (twice at most) and reads again until it does or a few
// seconds pass. The clipboard is the browser's: a test in another tab may
// copy a link of its own between this test's copy and its read. A page
// that never copies want fails all three.
func clipboardAfter(b *browser, want string, copyAgain func()) string {
	b.t.Helper()
	read := func() string {
		return run(b, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	}
	clip := read()
	for try := 0; try < 2 && clip != want; try++ {
		b.t.Logf("the clipboard held %q: another test's copy? copying again", clip)
		copyAgain()
		_ = poll(3*time.Second, "the copy", func() (bool, string) { clip = read(); return clip == want, clip })
	}
	return clip
}

// TestCopyLinkWithoutClipboard: with the clipboard denied, the link is
// shown for copying by hand, and nothing claims it was copied.
func TestCopyLinkWithoutClipboard(t *testing.T) {
	t.Parallel()
	_, s := copyLinkWith(t, cdpbrowser.PermissionSettingDenied)
	assert.Equal(t, "Link ready below.", s.ShareMsg)
}

// setClipboard grants or denies the clipboard to site's origin in the
// test's own browser context.
func setClipboard(b *browser, site string, setting cdpbrowser.PermissionSetting) {
	b.t.Helper()
	for _, name := range []string{"clipboard-write", "clipboard-read"} {
		_, err := chromedp.Call(b.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: setting, Origin: site,
			BrowserContextID: b.contextID(),
		})
		require.NoError(b.t, err, "setting %s to %s", name, setting)
	}
}

// clipboardAfter copies again when another tab's copy got there first: the
// clipboard holds another text before the read, and the snippet after.
func TestTheClipboardIsCopiedAgainAfterAnotherTabsCopy(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	setClipboard(b, site, cdpbrowser.PermissionSettingGranted)
	b.Open(site + "?" + demoQuery)
	clickSel(b, "#embed")
	waitFor(b, "the snippet", jsExists("#embed-snippet"))
	b.Do(evalVoid(`navigator.clipboard.writeText("another tab's link")`))
	snippet := valueOf(b, "#embed-snippet")
	assert.Equal(t, snippet, clipboardAfter(b, snippet, func() { clickSel(b, "#copy-snippet") }))
}
