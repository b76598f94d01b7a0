package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const compactEmbed = "?v=3&preset=demo&embed=1"

// At 800 × 600 the compact embed leads with the result: the verdict and
// decode's pool, where the leak lands, are on screen without scrolling
// (prefill's is folded), and the height it posts to the embedding page
// (its content's) stays within 700 px.
func TestCompactEmbedLeadsWithTheResult(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.Do(chromedp.EmulateViewport(800, 600))
	site := serveSite(t)
	b.Open(site + compactEmbed)
	waitFor(b, "the leak", `document.querySelector("#verdict").textContent.startsWith("LEAK")`)
	bottom := func(sel string) float64 {
		return evalJS[float64](b, `document.querySelector(`+jsLit(sel)+`).getBoundingClientRect().bottom`)
	}
	assert.LessOrEqual(t, bottom("#verdict"), 600.0, "the verdict is on screen")
	assert.LessOrEqual(t, bottom("#grid"), 600.0, "decode's pool is on screen")
	assert.Equal(t, "DETAILS", evalJS[string](b, `document.getElementById("pool-prefill").tagName`), "prefill's pool is folded")
	assert.False(t, evalJS[bool](b, `document.getElementById("pool-prefill").open`), "prefill's pool is one disclosure away")
	assert.LessOrEqual(t, evalJS[int](b, `document.body.scrollHeight`), 700, "the posted height")
	assert.False(t, evalJS[bool](b, `document.getElementById("embed-settings").open`), "the settings are one disclosure away")
	assert.Equal(t, 1, countAll(b, `#pipeline [aria-current="step"]`))
	assertLinkBesideRelease(t, b)

	href := evalJS[string](b, `document.getElementById("open-full").getAttribute("href")`)
	assert.Contains(t, href, "preset=demo&ctx=256&pool=128")
	assert.NotContains(t, href, "embed=1", "the full playground, same run")

	clickSel(b, "#embed-fixed")
	waitFor(b, "the fixed door's 400", `document.querySelector("#status").textContent === "400"`)
	assert.Equal(t, "true", evalJS[string](b, `document.getElementById("embed-fixed").getAttribute("aria-pressed")`))
	clickSel(b, "#embed-vulnerable")
	waitFor(b, "the leak again", `document.querySelector("#status").textContent === "200"`)
	clickSel(b, "#embed-replay")
	waitFor(b, "the replay from the first step", `document.querySelector("#embed-replay").getAttribute("aria-pressed") === "true"`)
	clickSel(b, "#embed-replay")
	waitFor(b, "paused", `document.querySelector("#embed-replay").getAttribute("aria-pressed") === "false"`)
}

// view= shows one panel alone, whose links stay in the embed
// (TestEmbedLinksStayInTheEmbed).
func TestCompactEmbedShowsOnePanel(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	site := serveSite(t)
	for _, c := range []struct{ view, present string }{
		{"pipeline", "#pipeline"}, {"pool", "#grid"}, {"compare", "#compare"}, {"transcript", "#transcript"},
	} {
		t.Run(c.view, func(t *testing.T) {
			withT(b, t)
			b.Open(site + compactEmbed + "&view=" + c.view)
			waitFor(b, c.present, jsExists(c.present))
			panels := evalJS[[]string](b, `[...document.querySelectorAll("#playground > section, #playground > figure")].map(e => e.id || e.className)`)
			require.Len(t, panels, 1, "one panel: %v", panels)
			for _, other := range []string{"#pipeline", "#grid", "#compare", "#transcript"} {
				if other != c.present {
					assert.Equal(t, 0, countAll(b, other), "%s in view=%s", other, c.view)
				}
			}
			if c.view == "transcript" {
				assert.Contains(t, textOf(b, "#transcript"), "HTTP status reported to tenant-B: 200 OK")
				assert.Contains(t, textOf(b, "#transcript"), "LEAK: tenant-B's response contains tenant-A's data -> True")
			}
			assertLinksStayInTheEmbed(t, b)
		})
	}
}

// theme= forces a colour scheme over the reader's.
func TestThemeIsForcedByTheLink(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	bg := func(b *browser) string { return evalJS[string](b, `getComputedStyle(document.body).backgroundColor`) }

	light := newBrowser(t)
	light.Open(site + compactEmbed + "&theme=dark")
	assert.Equal(t, "rgb(21, 22, 26)", bg(light), "dark although the reader's is light")

	dark := newBrowser(t)
	dark.emulateMedia("prefers-color-scheme", "dark")
	dark.Open(site + compactEmbed + "&theme=light")
	assert.Equal(t, "rgb(247, 247, 245)", bg(dark), "light although the reader's is dark")
	// The reader's own dark: TestScreenshotsDark. A theme of neither:
	// web/model TestBadViewKeysAreRefusedInWords.
}

// The Embed button's snippet offers the choices, and its link opens them.
func TestEmbedSnippetOffersTheChoices(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	clickSel(b, "#embed")
	waitFor(b, "the snippet", jsExists("#embed-snippet"))
	setField(b, "#embed-view", "pool")
	setField(b, "#embed-theme", "dark")
	b.Do(evalVoid(`document.getElementById("embed-ro").click()`))
	waitFor(b, "the snippet with the choices", `document.querySelector("#embed-snippet").value.includes("&view=pool&theme=dark&ro=1")`)
	assert.Contains(t, valueOf(b, "#embed-snippet"), `height="520"`)
}
