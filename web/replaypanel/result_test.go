package replaypanel

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/replay"
	"kvleak/web/model"
)

// The result's markup is well formed, and what the log wrote — a tenant's
// name, a skipped line — is text in it, never markup.
func TestResultMarkupIsTextFromTheLog(t *testing.T) {
	log := "t,tenant,prompt_tokens,output_tokens\n0,<b>A</b>,120,4\n0.5,C,<i>x</i>,4\n1,B,125,4\n"
	res, err := replay.Run(strings.NewReader(log), replay.Options{Config: engine.DemoConfig(), Timing: replay.DefaultTiming})
	require.NoError(t, err)
	v := model.NewReplayView(res, false)
	html := resultMarkup(&v, "/kvleak/"+v.FirstLeakLink, 0.25)

	dec := xml.NewDecoder(strings.NewReader(html))
	var elems []string
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			require.ErrorContains(t, err, "EOF", "well-formed")
			break
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			elems = append(elems, tok.Name.Local)
		case xml.CharData:
			text.Write(tok)
		}
	}
	assert.NotContains(t, elems, "b")
	assert.NotContains(t, elems, "i")
	assert.Contains(t, text.String(), "<b>A</b> → B: 1, 7, 119")
	assert.Contains(t, text.String(), "line 3: prompt_tokens")
	assert.Contains(t, text.String(), "Replayed in this page in 0.25 s.")
	assert.Contains(t, html, `<a id="replay-first-link" href="/kvleak/?v=4&amp;`)
	assert.Contains(t, html, `<td class="leak-cell"><span aria-hidden="true">⚠ </span>1</td><td>0</td>`)
}
