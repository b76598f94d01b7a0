package challenge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"kvleak/web/model"
)

// Every text is escaped, and every button says what it does in the data
// attributes dom.Clicked reads.
func TestPanelMarkup(t *testing.T) {
	v := model.ChallengeView{Open: true, N: 2, Of: 8, Title: "T <1>", Goal: "G & g", Rules: "R", Question: "Q?", Answer: "cannot",
		Solved: true, RunSolves: true, Status: `<script>alert(1)</script>`, Fair: "F", Lesson: "L", Link: `v=3&op=s,A,1,-,"x"`, Next: 3}
	m := panelMarkup(v)
	assert.NotContains(t, m, "<script>")
	assert.Contains(t, m, "&lt;script&gt;")
	assert.Contains(t, m, "T &lt;1&gt;")
	assert.Contains(t, m, `href="?v=3&amp;op=s,A,1,-,&#34;x&#34;"`)
	assert.Contains(t, m, `data-solved="true" data-run-solves="true"`)
	assert.Contains(t, m, `aria-pressed="true">It cannot leak`)
	assert.Contains(t, m, `aria-pressed="false">It can leak`)
	for _, act := range []string{model.ChallengeAnswer, model.ChallengeOpen, model.ChallengeRestart, model.ChallengeClose} {
		assert.Contains(t, m, `data-act="`+act+`" data-v="`, act)
	}
	assert.Equal(t, strings.Count(m, "<button"), strings.Count(m, `data-act="`), "every button has an action")
	assert.True(t, strings.HasPrefix(m, `<section id="challenge"`) && strings.HasSuffix(m, "</section>"), "one root element")

	v = model.ChallengeView{Open: true, N: 1, Of: 8, Title: "T", Status: "S", Hints: []string{"h1"}, HintIn: 2}
	m = panelMarkup(v)
	assert.Contains(t, m, `data-solved="false"`)
	assert.Contains(t, m, "Hint: h1")
	assert.Contains(t, m, "Tries before the next hint: 2.")
	assert.NotContains(t, m, "challenge-next", "Next once solved")
	assert.NotContains(t, m, "challenge-link")
	assert.NotContains(t, m, "<fieldset", "no question, no answers")
}

func TestListMarkup(t *testing.T) {
	m := listMarkup(model.ChallengeList{Solved: 1, Items: []model.ChallengeItem{{N: 1, Title: "A <b>", Solved: true}, {N: 2, Title: "B"}}})
	assert.Contains(t, m, `<div id="challenges" data-solved-count="1">`)
	assert.Contains(t, m, `<li data-n="1" data-solved="true"><button type="button" class="link" data-act="open" data-v="1">A &lt;b&gt;</button> <span class="challenge-done">✓ solved</span>`)
	assert.Contains(t, m, `<li data-n="2" data-solved="false">`)
	assert.Contains(t, m, "Solved 1 of 2.")
}
