package e2e

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rendersSince reads the components rendered since the last call, from the
// test hooks' counter (web/hooks_testhooks.go).
func rendersSince(t *testing.T, b *browser) map[string]int {
	t.Helper()
	var got map[string]int
	require.NoError(t, json.Unmarshal([]byte(evalJS[string](b, `kvleakTest.renders()`)), &got))
	return got
}

// A Send from the request form renders the page and the views it changed,
// not the form: go-app flags the component whose button was clicked for an
// update, and the form shows only what the page hands it (web/actions.go,
// renderPageOnly). The native test of the same (web/rendercount_test.go)
// dispatches on the page, so it cannot see the flag; this one clicks.
// When the Send does change the form (a message under a field), the page's
// render still updates it.
func TestASendDoesNotRenderTheFormAgain(t *testing.T) {
	t.Parallel()
	b := openTestHooks(t)
	// The first Send leaves the preset: the picker changes. The preset's log
	// may hold rows already, so wait for this Send's own rows (they come in
	// the late render) and for that render to end before counting.
	rows := countAll(b, "#log li[data-step][data-stage]")
	clickSel(b, "#send")
	waitLogGrows(b, rows)
	waitLate(b)
	rendersSince(t, b)
	for i := 0; i < 3; i++ {
		rows = countAll(b, "#log li[data-step][data-stage]")
		clickSel(b, "#send")
		waitLogGrows(b, rows)
		waitLate(b)
		got := rendersSince(t, b)
		assert.Equal(t, 2, got["playground"], "send %d: the page renders, then its lower panels after the paint: %v", i+1, got)
		assert.Equal(t, 1, got["eventLog"], "send %d: the log shows the new events: %v", i+1, got)
		assert.Zero(t, got["requestForm"], "send %d: the form did not change: %v", i+1, got)
	}

	setValueOnly(b, "#prompt-tokens", "12x") // typed, not yet checked
	settle(b)
	rendersSince(t, b)
	clickSel(b, "#send")
	waitFor(b, "the prompt's message", jsExists("#prompt-tokens-error"))
	assert.Equal(t, 1, rendersSince(t, b)["requestForm"], "the form shows the message")
}
