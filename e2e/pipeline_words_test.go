package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pipeline says what its marks mean — done, the selected step, later,
// and struck through for a stage the request does not pass — and where
// each half stands in words, not only as a stage's key; counts agree with
// their nouns ("1 response").
func TestPipelineMarksAndWordsAreExplained(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	b.Open(site + "?" + demoQuery + "&step=19")
	waitFor(b, "the pipeline at step 19", `document.querySelectorAll("#pipeline .stage-done").length > 0`)
	require.True(t, evalJS[bool](b, `!!document.getElementById("pipeline-legend")`), "a legend beside the pipeline")
	legend := textOf(b, "#pipeline-legend")
	for _, want := range []string{"done", "selected step", "later", "does not pass"} {
		assert.Contains(t, legend, want)
	}
	assert.True(t, evalJS[bool](b, `getComputedStyle(document.querySelector("#pipeline-legend .stage-never .stage-name")).textDecorationLine.includes("line-through")`),
		"the legend shows the struck-through mark as the stages wear it")
	for _, sel := range []string{"#pipeline-prefill", "#pipeline-decode"} {
		text := textOf(b, sel)
		assert.Regexp(t, `\s`, text, "%s says where the half is in words: %q", sel, text)
	}

	b.Open(site + "?" + demoQuery + "&compare=1")
	waitFor(b, "the comparison", `document.querySelectorAll("#compare .side").length === 2`)
	totals := evalJS[[]string](b, `[...document.querySelectorAll("#compare .side")].map(s => s.textContent)`)
	assert.Contains(t, totals[0], "7 leaked pages in 1 response.", "the vulnerable side")
	assert.Contains(t, totals[1], "0 leaked pages in 0 responses.", "the fixed side")
}

// At a desktop's width the pipeline's captions wrap between words and at
// an identifier's parts (after _ or ., between the words of CamelCase),
// never inside a word: no "DecodeTransfe/rQueue".
func TestPipelineCaptionsBreakBetweenWords(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.Do(chromedp.EmulateViewport(1280, 800))
	b.Open(serveSite(t) + "?" + demoQuery)
	waitFor(b, "the pipeline", jsExists("#pipeline .stage"))
	bad := evalJS[[]string](b, `(() => {
		const bad = [], ok = /[\s_.\-\/\u200b(]/;
		for (const stage of document.querySelectorAll("#pipeline .stage, #pipeline-panel dd")) {
			const walk = document.createTreeWalker(stage, NodeFilter.SHOW_TEXT);
			for (let n; (n = walk.nextNode());) {
				const s = n.textContent;
				let lastTop = null;
				for (let i = 0; i < s.length; i++) {
					const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
					const rs = r.getClientRects(); if (!rs.length) continue;
					const top = rs[0].top;
					if (lastTop !== null && top > lastTop + 2) {
						const prev = s[i - 1], cur = s[i];
						const camel = /[a-z]/.test(prev) && /[A-Z]/.test(cur);
						if (!ok.test(prev) && !ok.test(cur) && !camel) bad.push(s.slice(Math.max(0, i - 12), i) + "/" + s.slice(i, i + 8));
					}
					lastTop = top;
				}
			}
		}
		return bad; })()`)
	assert.Empty(t, bad, "captions broken inside a word at 1280px")
}
