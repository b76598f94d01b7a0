package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Reading and writing the pool notation of presets_expected_test.go.

// cellTokensJS lists #grid's cells as notation tokens. A range cell's
// leaked count is only in its label ("7 LEAKED"); a one-page leaked cell
// counts 1. An unknown state reads as "?state", which no literal matches.
const cellTokensJS = `[...document.querySelectorAll("#grid .cell")].map(c => {
	const state = ` + cellStateJS + `, sym = {free: ".", allocated: "+", stale: "~", leaked: "!"}[state];
	let tok = (c.dataset.owner ?? "") + (sym ?? "?" + state);
	if (state === "leaked") {
		const m = /(\d[\d,]*) LEAKED/.exec(c.getAttribute("aria-label") || "");
		const n = m ? +m[1].replace(/,/g, "") : ((c.dataset.page || "").includes("-") ? -1 : 1);
		if (n !== 1) tok += n;
	}
	return tok;
})`

// poolNotation writes cell tokens as notation, runs folded into "×N".
func poolNotation(tokens []string) string {
	var parts []string
	for i := 0; i < len(tokens); {
		j := i
		for j < len(tokens) && tokens[j] == tokens[i] {
			j++
		}
		if n := j - i; n > 1 {
			parts = append(parts, tokens[i]+"×"+strconv.Itoa(n))
		} else {
			parts = append(parts, tokens[i])
		}
		i = j
	}
	return strings.Join(parts, " ")
}

// canonicalPool rewrites a hand-written pool literal the way poolNotation
// writes it (e.g. "A+ A+" as "A+×2"), failing on a malformed literal.
func canonicalPool(t *testing.T, pool string) string {
	t.Helper()
	var tokens []string
	for _, f := range strings.Fields(pool) {
		tok, count, found := strings.Cut(f, "×")
		n := 1
		if found {
			var err error
			n, err = strconv.Atoi(count)
			require.NoError(t, err, "pool literal %q: bad repeat in %q", pool, f)
		}
		for range n {
			tokens = append(tokens, tok)
		}
	}
	return poolNotation(tokens)
}

func TestPoolNotation(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "B~ A!×7", poolNotation([]string{"B~", "A!", "A!", "A!", "A!", "A!", "A!", "A!"}))
	assert.Equal(t, "A!7 A~×3 .", poolNotation([]string{"A!7", "A~", "A~", "A~", "."}))
	assert.Equal(t, "", poolNotation(nil))
	assert.Equal(t, "A+×3 .", canonicalPool(t, "A+×2 A+ ."))
}

// gridPool is #grid as it is now, in pool notation.
func gridPool(b *browser) string {
	b.t.Helper()
	return poolNotation(evalJS[[]string](b, cellTokensJS))
}
