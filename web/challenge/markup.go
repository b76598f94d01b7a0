package challenge

import (
	"html"
	"strconv"
	"strings"

	"kvleak/web/model"
)

// The room's panels are raw markup, built here: they change only with the
// run or the reader's progress, and markup written as text costs the wasm
// a fraction of go-app's element calls. Every text is escaped. Their
// buttons say what they do in data attributes (dom.Clicked), read by one
// handler on a wrapper (panel.go).

// panelMarkup is the open challenge's panel (Panel).
func panelMarkup(v model.ChallengeView) string {
	e, itoa := html.EscapeString, strconv.Itoa
	status, tone := "Not solved yet: ", "open"
	if v.RunSolves {
		status, tone = "✓ Solved by this run. ", "solved"
	} else if v.Solved {
		status = "✓ Solved before; not by this run: "
	}
	m := `<section id="challenge" class="panel challenge" aria-labelledby="challenge-h" data-n="` + itoa(v.N) + `" data-solved="` + strconv.FormatBool(v.Solved) +
		`" data-run-solves="` + strconv.FormatBool(v.RunSolves) + `"><p class="hint">Capture the flag · challenge ` + itoa(v.N) + ` of ` + itoa(v.Of) +
		`</p><h2 id="challenge-h" tabindex="-1">` + e(v.Title) + `</h2><p id="challenge-goal">` + e(v.Goal) + `</p><p class="hint">` + e(v.Rules) + `</p>`
	if v.Question != "" {
		m += `<fieldset class="challenge-question row wrap"><legend>` + e(v.Question) + `</legend>`
		for _, o := range model.Answers {
			m += `<button type="button" class="secondary" id="challenge-answer-` + o.Value + `" data-act="` + model.ChallengeAnswer + `" data-v="` + o.Value +
				`" aria-pressed="` + strconv.FormatBool(o.Value == v.Answer) + `">` + o.Label + `</button>`
		}
		m += `</fieldset>`
	}
	m += `<p id="challenge-status" class="challenge-status" data-tone="` + tone + `">` + status + e(v.Status) + `</p>`
	if v.Fair != "" {
		m += `<p class="challenge-fair">` + e(v.Fair) + `</p>`
	}
	if v.Lesson != "" {
		m += `<p>` + e(v.Lesson) + `</p>`
	}
	if v.Link != "" {
		m += `<p>The winning run: <a id="challenge-link" class="challenge-link" href="?` + e(v.Link) + `">its permalink</a></p>`
	}
	for _, h := range v.Hints {
		m += `<p class="challenge-hint">Hint: ` + e(h) + `</p>`
	}
	if v.HintIn > 0 {
		m += `<p class="hint">Tries before the next hint: ` + itoa(v.HintIn) + `.</p>`
	}
	m += `<div class="row wrap challenge-nav">`
	if v.Solved && v.Next > 0 {
		m += `<button type="button" class="primary" id="challenge-next" data-act="` + model.ChallengeOpen + `" data-v="` + itoa(v.Next) + `">Next: challenge ` + itoa(v.Next) + ` →</button>`
	}
	return m + `<button type="button" class="secondary" id="challenge-restart" data-act="` + model.ChallengeRestart + `" data-v="">Start over</button>` +
		`<button type="button" class="link" id="challenge-close" data-act="` + model.ChallengeClose + `" data-v="">Close the challenge</button></div></section>`
}

// listMarkup is the ladder (List), in its folding section. It changes
// only when the reader solves a challenge.
func listMarkup(l model.ChallengeList) string {
	var b strings.Builder
	b.WriteString(`<details id="ctf" class="panel section"><summary><h2 id="ctf-h">Capture the flag</h2></summary>` +
		`<div id="challenges" data-solved-count="` + strconv.Itoa(l.Solved) + `"><p>Tenant A holds a flag; you, as another tenant, try to read it through the engine, ` +
		`then meet each defence in turn. A challenge is solved by what the run did, however you got there; your progress stays in this browser.</p>` +
		`<p class="hint">Solved ` + strconv.Itoa(l.Solved) + ` of ` + strconv.Itoa(len(l.Items)) + `.</p><ol class="challenge-list">`)
	for _, it := range l.Items {
		n := strconv.Itoa(it.N)
		b.WriteString(`<li data-n="` + n + `" data-solved="` + strconv.FormatBool(it.Solved) + `"><button type="button" class="link" data-act="` +
			model.ChallengeOpen + `" data-v="` + n + `">` + html.EscapeString(it.Title) + `</button>`)
		if it.Solved {
			b.WriteString(` <span class="challenge-done">✓ solved</span>`)
		}
		b.WriteString(`</li>`)
	}
	b.WriteString(`</ol></div></details>`)
	return b.String()
}
