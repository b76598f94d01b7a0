package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// shootViews saves the views a first visit meets beyond the main page —
// a tour card with its part of the page, the pool embedded alone, the
// share panel with its snippet — at desktop and phone widths, each file
// name ending in suffix ("" or "-dark"), for a human to look at.
func shootViews(t *testing.T, b *browser, site, dir, suffix string) {
	t.Helper()
	if !shooting { // these views' own tests check them
		return
	}
	for _, w := range []int64{1280, phoneWidth} {
		b.Do(chromedp.EmulateViewport(w, 800))
		b.Open(site + "?tour=3")
		waitFor(b, "card 3", `(document.querySelector("#tour-pos") || {}).textContent?.includes("card 3 of 8")`)
		stillRect(b, spotOf(t, b))
		viewportShot(b, filepath.Join(dir, "tour-3-"+strconv.FormatInt(w, 10)+suffix+".png"))

		b.Open(site + "?" + demoQuery + "&embed=1&view=pool")
		waitFor(b, "the pool alone", jsExists("#grid"))
		b.Screenshot(filepath.Join(dir, "embed-pool-"+strconv.FormatInt(w, 10)+suffix+".png"), int(w))
	}
	b.Do(chromedp.ResetViewport())
	b.Open(site + "?" + demoQuery)
	clickSel(b, "#embed")
	waitFor(b, "the snippet", jsExists("#embed-snippet"))
	clickSel(b, "#send")
	waitFor(b, "the line under Send", `(document.querySelector("#send-result") || {}).textContent?.includes("HTTP")`)
	waitLate(b)
	b.Screenshot(filepath.Join(dir, "desktop-share"+suffix+".png"), 1280)
	b.Screenshot(filepath.Join(dir, "phone-share"+suffix+".png"), phoneWidth)
}

// shootMaps saves the launch preset's pool maps and their spans as a
// reader sees them at 1280×800 and at 360 px, each server's scrolled to
// its heading (maps-SERVER-WIDTH+suffix.png).
func shootMaps(t *testing.T, b *browser, site, dir, suffix string) {
	t.Helper()
	if !shooting { // TestPoolMapsFitTheScreen checks them
		return
	}
	b.Open(site + "?v=3&preset=glm-launch")
	for _, w := range []int64{1280, phoneWidth} {
		b.Do(chromedp.EmulateViewport(w, 800))
		for _, m := range []struct{ server, id, heading string }{{"prefill", "prefill-map", "pool-h"}, {"decode", "pool-map", "pool-decode-h"}} {
			mapOf(b, m.id)
			b.Do(evalVoid(`document.getElementById("` + m.heading + `").scrollIntoView()`))
			stillRect(b, "#"+m.id)
			viewportShot(b, filepath.Join(dir, "maps-"+m.server+"-"+strconv.FormatInt(w, 10)+suffix+".png"))
		}
	}
	b.Do(chromedp.ResetViewport())
}

// viewportShot saves what the viewport shows (a fixed or sticky card where
// the reader sees it, which a full-page capture would move).
func viewportShot(b *browser, path string) {
	b.t.Helper()
	if !shooting {
		return
	}
	png := run(b, chromedp.CaptureScreenshot())
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}
