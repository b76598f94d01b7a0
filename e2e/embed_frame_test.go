package e2e

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A link inside an embed opens the full playground in a new tab: the frame
// stays the embed the writer put there.
func TestEmbedLinksOpenInANewTab(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	b.Open(site + "?" + demoQuery + "&embed=1")
	clickSel(b, "#embed-settings summary")
	waitFor(b, "the settings open", `document.getElementById("embed-settings").open`)
	link := `document.querySelector("#embed-settings a[data-preset]")`
	require.True(t, evalJS[bool](b, "!!"+link), "a See it: link in the embed's settings")
	href := evalJS[string](b, link+".href")
	opened := chromedp.WaitNewTarget(b.ctx, func(info *target.Info) bool { return strings.Contains(info.URL, "preset=") })
	clickPath(b, link)
	select {
	case <-opened:
	case <-time.After(uiTimeout):
		t.Fatalf("clicking %s opened no new tab", href)
	}
	assert.Equal(t, "_blank", evalJS[string](b, link+".target"))
	assert.Contains(t, evalJS[string](b, link+".rel"), "noopener")
	waitFor(b, "the frame still the embed", jsExists(`#playground.embed #open-full`))
	assert.Contains(t, evalJS[string](b, `location.search`), "embed=1", "the frame did not navigate")
}

// snippetHost serves, on another site than the playground (localhost
// against 127.0.0.1), a writer's page holding html: the Embed snippet as
// pasted into a doc.
func snippetHost(t *testing.T, html string) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><html lang="en"><meta name="viewport" content="width=device-width, initial-scale=1">` +
			`<title>A writer's doc</title><body style="margin:0"><main><h1>The leak</h1>` + html + `<p>After the frame.</p></main></body></html>`))
	})
	ln := listenFresh(t)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return "http://localhost:" + port + "/"
}

// embedSnippets asks the share panel, on one page, for a snippet with each
// view (empty for the compact playground), in order.
func embedSnippets(t *testing.T, site string, views ...string) map[string]string {
	t.Helper()
	b := newBrowser(t)
	b.Open(site + "?" + demoQuery)
	clickSel(b, "#embed")
	waitFor(b, "the snippet", jsExists("#embed-snippet"))
	out := map[string]string{}
	for _, view := range views {
		if view != "" {
			setField(b, "#embed-view", view)
			waitFor(b, "the snippet for view="+view, `document.querySelector("#embed-snippet").value.includes("view=`+view+`")`)
		}
		out[view] = valueOf(b, "#embed-snippet")
	}
	return out
}

// frameFits waits until the writer's iframe is as tall as the frame's
// content, and returns that height.
func frameFits(t *testing.T, b, frame *browser) int {
	t.Helper()
	var content int
	var height string
	for deadline := time.Now().Add(heightTimeout); ; time.Sleep(50 * time.Millisecond) {
		content = run(frame, chromedp.Evaluate[int](`document.body.scrollHeight`))
		height = run(b, chromedp.Evaluate[string](`document.querySelector("iframe").getAttribute("height")`))
		if height == strconv.Itoa(content) {
			return content
		}
		if time.Now().After(deadline) {
			t.Fatalf("the iframe stays %s px tall; the frame's content is %d px", height, content)
		}
	}
}

// The Embed snippet, pasted as it is into a page on another site, sizes
// its frame to the content: on a phone the compact playground is taller
// than any fixed height, and a panel alone is shorter.
func TestEmbedSnippetSizesItsFrame(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	snippets := embedSnippets(t, site, "", "pool")
	for _, c := range []struct {
		view  string
		width int64
		more  func(t *testing.T, frame *browser)
	}{
		{"", 360, nil},
		{"pool", 800, func(t *testing.T, frame *browser) {
			// Alone, the pool still says what its marks mean and what the run came to.
			assert.True(t, run(frame, chromedp.Evaluate[bool](`(() => { const l = document.querySelector(".legend"); return !!l && l.getBoundingClientRect().height > 0; })()`)), "the pool's legend is shown")
			assert.True(t, strings.HasPrefix(run(frame, chromedp.Evaluate[string](`(document.getElementById("verdict") || {}).textContent || ""`)), "LEAK"), "the verdict is shown")
		}},
	} {
		t.Run("view="+c.view, func(t *testing.T) {
			snippet := snippets[c.view]
			b := newBrowser(t)
			b.Do(chromedp.EmulateViewport(c.width, 800))
			b.Do(chromedp.Navigate(snippetHost(t, snippet)))
			frame := b.attachFrame(site)
			waitFor(frame, "the embedded app", `!!document.querySelector('#playground[data-ready="true"]')`)
			h := frameFits(t, b, frame)
			t.Logf("view=%q at %d px: the frame is %d px tall", c.view, c.width, h)
			if c.more != nil {
				c.more(t, frame)
			}
		})
	}
}
