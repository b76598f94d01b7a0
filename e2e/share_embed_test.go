package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmbedMode opens ?embed=1 links: a compact view without the intro,
// with a caption linking to the same state in the full playground (the
// demo's link, which TestEveryPresetOpensAsPinned opens); ro=1 also hides
// the controls. That ro=1 means nothing outside embed mode is web/model's
// TestReadOnlyNeedsTheEmbed.
func TestEmbedMode(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	p := mustPreset(t, "demo")
	want := expectAt(t, p.Slug, 0)

	b.Open(site + "?" + demoQuery + "&embed=1")
	s := waitShows(b, "the embedded demo", want)
	assert.False(t, s.HasIntro, "no .intro in embed mode")
	assert.True(t, s.HasSend, "#send is there in an embed that is not read-only")
	assert.True(t, s.HasMode, "the settings are there in an embed that is not read-only")
	assert.False(t, run(b, chromedp.Evaluate[bool](`!!document.getElementById("copy-link")`)), "no share panel in an embed")
	full := run(b, chromedp.Evaluate[map[string]string](`(() => {
		const a = document.getElementById("open-full");
		return a ? {href: a.href, target: a.target, rel: a.rel, text: a.textContent} : null;
	})()`))
	require.NotNil(t, full, "#open-full in the caption")
	assert.Equal(t, site+"?"+demoQuery, full["href"], "#open-full opens the same state without embed")
	assert.Equal(t, "_blank", full["target"])
	assert.Contains(t, full["rel"], "noopener")
	assert.True(t, run(b, chromedp.Evaluate[bool](`!!document.querySelector(".caption #open-full")`)), "#open-full sits in the caption")

	b.Open(site + "?" + demoQuery + "&embed=1&ro=1")
	s = waitShows(b, "the read-only embed", want)
	assert.False(t, s.HasSend, "no #send in a read-only embed")
	assert.False(t, s.HasMode, "no settings in a read-only embed")
	assert.False(t, s.HasIntro)
	assert.True(t, run(b, chromedp.Evaluate[bool](`!!document.getElementById("open-full")`)), "#open-full in a read-only embed")
}

// embedHost serves the embedding example from static/, laid out as
// internal/sitegen lays it out (static/*.html at the root, the rest of
// static/ under web/), with a plain file server: a page on another origin,
// without the playground's security headers. Any other path is a stub page,
// so an iframe falling back to the example's own folder loads nothing big.
func embedHost(t *testing.T) (port string) {
	t.Helper()
	static := filepath.Join(repoRoot(t), "static")
	mux := http.NewServeMux()
	mux.Handle("/web/", http.StripPrefix("/web/", http.FileServer(http.Dir(static))))
	mux.HandleFunc("/embed-example.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(static, "embed-example.html"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><html lang="en"><title>stub</title><p>not the playground</p></html>`))
	})
	ln := listenFresh(t)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	_, port, _ = net.SplitHostPort(ln.Addr().String())
	return port
}

// TestEmbedExampleCrossSite loads embed-example.html from another site
// (localhost:P2 embedding 127.0.0.1:P1: different sites, so the frame is
// third-party), first with third-party cookies blocked (the reader's
// setting; Chromium's default too), then with the playground's site data
// blocked when embedded (a per-site block, or a browser's strict mode:
// cookies, localStorage, caches and service workers all refused). Either
// way the frame's app must start with no console error, show the demo's
// leak, and size the iframe through postMessage.
func TestEmbedExampleCrossSite(t *testing.T) {
	t.Parallel()
	site := serveSite(t) // http://127.0.0.1:P1/...
	host := "http://localhost:" + embedHost(t)
	page := host + "/embed-example.html?app=" + url.QueryEscape(site)
	u, err := url.Parse(site)
	require.NoError(t, err)
	siteOrigin := u.Scheme + "://" + u.Host

	t.Run("third-party cookies blocked", func(t *testing.T) {
		b := newBrowserWithPrefs(t, map[string]any{"profile": map[string]any{
			"cookie_controls_mode":      1, // "Block third-party cookies"
			"block_third_party_cookies": true,
		}})
		frame := openEmbedExample(t, b, page, site)
		probe := run(frame, chromedp.Evaluate[map[string]any](`(async () => {
			document.cookie = "kvleak_probe=1; SameSite=None; Secure";
			return {cookie: document.cookie.includes("kvleak_probe"), access: await document.hasStorageAccess()};
		})()`, chromedp.EvalAwaitPromise))
		assert.Equal(t, map[string]any{"cookie": false, "access": false}, probe, "the frame's cookies are blocked")
		checkEmbedExample(t, b, frame)
	})

	t.Run("third-party site data blocked", func(t *testing.T) {
		// Chrome's content setting "cookies" governs all site data; the
		// pattern pair blocks the playground's origin when embedded in the
		// example's.
		pattern := siteOrigin + "," + host
		b := newBrowserWithPrefs(t, map[string]any{"profile": map[string]any{
			"content_settings": map[string]any{"exceptions": map[string]any{"cookies": map[string]any{
				pattern: map[string]any{"setting": 2}, // block
			}}},
		}})
		frame := openEmbedExample(t, b, page, site)
		// dom.GuardStorage replaces window.localStorage (an accessor) with an
		// in-memory store (a data property) only when reading it threw.
		shimmed := run(frame, chromedp.Evaluate[bool](
			`"value" in Object.getOwnPropertyDescriptor(window, "localStorage")`))
		assert.True(t, shimmed, "the frame's site data is blocked, and the app noticed")
		shim := run(frame, chromedp.Evaluate[bool](`(() => {
			localStorage.setItem("k", "v");
			return localStorage.getItem("k") === "v" && localStorage.length >= 1 && localStorage.getItem("none") === null;
		})()`))
		assert.True(t, shim, "the in-memory localStorage works")
		checkEmbedExample(t, b, frame)
	})
}

// openEmbedExample opens the example page in b and returns the attached
// frame once its app runs, failing early if the app dies while starting.
func openEmbedExample(t *testing.T, b *browser, page, site string) *browser {
	t.Helper()
	checkInitialHeight(t)
	b.Do(chromedp.Navigate(page))
	frame := b.attachFrame(site)
	var problems string
	died := func() bool { return strings.Contains(problems, "uncaught exception") }
	waitUntil(t, "the embedded app to run", readyTimeout, func() (bool, string) {
		b.mu.Lock()
		problems = strings.Join(b.problems, "\n")
		b.mu.Unlock()
		return died() || run(frame, chromedp.Evaluate[bool](jsExists(readySelector))), "browser problems so far:\n" + problems
	})
	if died() {
		t.Fatalf("the embedded app died while starting; browser problems so far:\n%s", problems)
	}
	return frame
}

// initialHeight is the iframe's height in embed-example.html, before the
// playground says how tall it is.
const initialHeight = "720"

// checkInitialHeight checks that the example page starts the iframe at
// initialHeight (read from the file: in the browser the app may resize the
// frame before a test can look).
func checkInitialHeight(t *testing.T) {
	t.Helper()
	html, err := os.ReadFile(filepath.Join(repoRoot(t), "static", "embed-example.html"))
	require.NoError(t, err)
	assert.Contains(t, string(html), `height="`+initialHeight+`"`, "embed-example.html's iframe height")
}

// checkEmbedExample checks the example page b with its attached frame: the
// demo's leak in embed view, and the iframe as tall as the frame's content.
func checkEmbedExample(t *testing.T, b, frame *browser) {
	t.Helper()
	p := mustPreset(t, "demo")
	s := waitShows(frame, "the demo in the cross-site frame", expectAt(t, p.Slug, 0))
	assert.False(t, s.HasIntro, "embed view in the frame")
	assert.Equal(t, "?embed=1&"+demoQuery, s.Search)
	assert.Contains(t, s.Verdict, "LEAK")

	var height string
	err := poll(heightTimeout, "the iframe as tall as the frame's content", func() (bool, string) {
		content := run(frame, chromedp.Evaluate[int](`document.body.scrollHeight`))
		height = run(b, chromedp.Evaluate[string](`document.getElementById("kvleak-playground").getAttribute("height")`))
		return height == strconv.Itoa(content) && height != initialHeight,
			fmt.Sprintf("its height stayed %q; the content is %d px tall (no kvleak:height message?)", height, content)
	})
	if err != nil {
		t.Error(err)
		return
	}
	t.Logf("iframe height: %s -> %s", initialHeight, height)
	b.Screenshot(filepath.Join(repoRoot(t), "build", "screenshots", safeName(t.Name())+".png"), 0)
}

// TestEmbedExampleScript checks embed-example.js on its own, with a stub
// in place of the playground: it believes only height messages from its
// iframe at the app's origin, bounds the height, and refuses a ?app= that
// is not an http(s) address.
func TestEmbedExampleScript(t *testing.T) {
	t.Parallel()
	host := "http://localhost:" + embedHost(t)
	stub := stubServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><html lang="en"><title>stub playground</title><p>stub</p></html>`))
	}))
	b := newBrowser(t)
	b.Do(chromedp.Navigate(host + "/embed-example.html?app=" + url.QueryEscape(stub.URL+"/docs/")))
	frame := b.attachFrame(stub.URL)
	assert.Equal(t, stub.URL+"/docs/?embed=1&"+demoQuery,
		run(b, chromedp.Evaluate[string](`document.getElementById("kvleak-playground").src`)), "the frame's address: ?app= plus the state")

	height := func() string {
		return run(b, chromedp.Evaluate[string](`document.getElementById("kvleak-playground").getAttribute("height")`))
	}
	// post sends a message to the example page, from the frame or from the
	// page itself, then a good message from the frame as a marker: once the
	// marker's height shows, the message before it has been handled.
	marker := 300
	post := func(from *browser, data string) {
		t.Helper()
		marker++
		from.Do(chromedp.Evaluate[chromedp.Void](`parent.postMessage(` + data + `, "*")`))
		frame.Do(chromedp.Evaluate[chromedp.Void](`parent.postMessage({type: "kvleak:height", height: ` + strconv.Itoa(marker) + `}, "*")`))
		waitUntil(t, "the marker message after "+data, heightTimeout, func() (bool, string) {
			got := height()
			return got == strconv.Itoa(marker), "the height is " + got
		})
	}
	// The heights a message set are recorded as they happen, since the
	// marker overwrites them.
	b.Do(chromedp.Evaluate[chromedp.Void](`window.kvleakSeen = [];
		new MutationObserver(() => kvleakSeen.push(document.getElementById("kvleak-playground").getAttribute("height")))
			.observe(document.getElementById("kvleak-playground"), {attributes: true, attributeFilter: ["height"]})`))
	seen := func() []string { return run(b, chromedp.Evaluate[[]string](`kvleakSeen.splice(0)`)) }

	cases := []struct {
		name, data string
		from       *browser
		want       []string // heights set, the marker's last
	}{
		{"from the frame", `{type: "kvleak:height", height: 1234}`, frame, []string{"1234"}},
		{"fractional", `{type: "kvleak:height", height: 812.6}`, frame, []string{"813"}},
		{"tiny", `{type: "kvleak:height", height: 3}`, frame, []string{"200"}},
		{"huge", `{type: "kvleak:height", height: 1e12}`, frame, []string{"20000"}},
		{"negative", `{type: "kvleak:height", height: -5}`, frame, nil},
		{"not a number", `{type: "kvleak:height", height: "tall"}`, frame, nil},
		{"another type", `{type: "other", height: 999}`, frame, nil},
		{"no data", `null`, frame, nil},
		{"from the page itself", `{type: "kvleak:height", height: 999}`, b, nil},
	}
	for _, c := range cases {
		post(c.from, c.data)
		got := seen()
		require.NotEmpty(t, got, c.name)
		assert.Equal(t, append([]string{}, c.want...), got[:len(got)-1], "%s: heights set before the marker", c.name)
	}

	// ?app= must be http(s): anything else falls back to the page's folder.
	for _, app := range []string{"javascript:alert(1)", "data:text/html,hi", "http://[bad"} {
		b.Do(chromedp.Navigate(host + "/embed-example.html?app=" + url.QueryEscape(app)))
		src := run(b, chromedp.Evaluate[string](`document.getElementById("kvleak-playground").src`))
		assert.Equal(t, host+"/?embed=1&"+demoQuery, src, "?app=%s", app)
	}
}

// TestEmbedExampleSameOrigin serves embed-example.html from the playground's
// own server, under its Content-Security-Policy: the external script runs,
// the frame (same origin, the default ?app) loads and the height follows.
func TestEmbedExampleSameOrigin(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	checkInitialHeight(t)
	b := newBrowser(t)
	b.Do(chromedp.Navigate(site + "embed-example.html"))
	frameReady := `(() => {
		const f = document.getElementById("kvleak-playground");
		const d = f && f.contentDocument;
		return !!(d && d.querySelector('#playground[data-ready="true"]'));
	})()`
	waitFor(b, "the same-origin frame's app", frameReady, within(readyTimeout))
	got := run(b, chromedp.Evaluate[map[string]string](`(() => {
		const f = document.getElementById("kvleak-playground");
		const d = f.contentDocument;
		return {src: f.src, status: d.getElementById("status").textContent.trim(),
			verdict: d.getElementById("verdict").textContent.trim()};
	})()`))
	assert.Equal(t, site+"?embed=1&"+demoQuery, got["src"], "the frame's address: the page's folder and its state")
	assert.Equal(t, "200", got["status"])
	assert.Contains(t, got["verdict"], "LEAK")
	waitFor(b, "the iframe height to follow the content (a kvleak:height message)", `(() => {
		const f = document.getElementById("kvleak-playground");
		return f.getAttribute("height") !== "`+initialHeight+`" &&
			Number(f.getAttribute("height")) === f.contentDocument.body.scrollHeight;
	})()`, within(heightTimeout))
}

// newBrowserWithPrefs is newBrowser with Chromium profile preferences set
// before it starts, as a reader's settings would be.
func newBrowserWithPrefs(t *testing.T, prefs map[string]any) *browser {
	t.Helper()
	data, err := json.Marshal(prefs)
	require.NoError(t, err)
	return newBrowserWithProfile(t, func(dir string) {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "Default"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "Default", "Preferences"), data, 0o644))
	})
}
