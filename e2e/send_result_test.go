package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// After Send, and after a change of the settings, a line right below the
// Send button says what came of it and leads to the response; the one
// status region (#announce) is the only one that announces it.
func TestSendSaysItsOutcomeBesideTheButton(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	setField(b, "#mode", "fixed")
	waitFor(b, "the outcome of the settings' change", `(document.querySelector("#send-result") || {}).textContent?.includes("HTTP 400")`)
	assert.Contains(t, textOf(b, "#send-result"), textOf(b, "#verdict"), "the line says the replayed run's verdict")

	sendRequest(b, "C", "40", "weekly report")
	waitFor(b, "the outcome beside Send", `(document.querySelector("#send-result") || {}).textContent?.includes("HTTP 200")`)
	line := textOf(b, "#send-result")
	assert.Contains(t, line, "tenant C", "it names the request it is about")
	assert.True(t, strings.Contains(line, textOf(b, "#verdict")), "it says the verdict: %q", line)
	send, res := stillRect(b, "#send"), stillRect(b, "#send-result")
	assert.True(t, res.Top >= send.Bottom && res.Top-send.Bottom < 80, "the line sits right below #send: %s under %s", res, send)
	assert.True(t, res.Bottom <= float64(viewH), "and on screen with it: %s", res)
	assert.Equal(t, []string{"announce"}, evalJS[[]string](b, `[...document.querySelectorAll('[role=status], [role=alert], [aria-live]:not([aria-live=off])')]
		.filter(e => e.closest(".response") || e.closest("#send-result") || e.contains(document.getElementById("send-result")))
		.map(e => e.id)`), "one status region says it: #announce, not the line too")

	clickPath(b, `document.querySelector("#send-result button, #send-result a")`)
	waitFor(b, "the focus in the response", `document.querySelector(".response").contains(document.activeElement)`)
	verdict := stillRect(b, "#verdict")
	assert.True(t, verdict.Top >= 0 && verdict.Bottom <= float64(viewH), "the line leads to the response: #verdict %s", verdict)
}
