package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// Values no numeric field may take, by subtest name.
var badNumbers = []struct{ name, value string }{
	{"negative", "-5"},
	{"letters", "abc"},
	{"zero", "0"},
	{"huge", "99999999999999999999"},
}

// numericFields are the playground's number inputs: the four settings and
// the request's prompt length.
var numericFields = []string{"ctx", "pool", "page-size", "decode-pool", "prompt-tokens"}

// fieldError is the JavaScript test that #<id>-error is shown beside the
// field: a role=alert message in the field's own block, which the input
// names in aria-describedby and marks aria-invalid.
func fieldErrorShown(id string) string {
	return fmt.Sprintf(`(() => {
		const input = document.getElementById(%[1]s), msg = document.getElementById(%[1]s + "-error");
		return !!(input && msg && msg.getAttribute("role") === "alert" && msg.textContent.trim() !== "" &&
			input.closest(".field") && input.closest(".field").contains(msg) &&
			input.getAttribute("aria-invalid") === "true" &&
			(input.getAttribute("aria-describedby") || "").split(/\s+/).includes(%[1]s + "-error"));
	})()`, jsLit(id))
}

func fieldErrorGone(id string) string {
	return fmt.Sprintf(`document.getElementById(%s + "-error") === null`, jsLit(id))
}

// assertUnchanged compares the simulation's visible state with before.
func assertUnchanged(t *testing.T, b *browser, before uiState, after string) {
	t.Helper()
	now := readState(b)
	assert.Equal(t, before.Status, now.Status, "#status %s", after)
	assert.Equal(t, before.Verdict, now.Verdict, "#verdict %s", after)
	assert.Equal(t, before.LogRows, now.LogRows, "#log rows %s", after)
	assert.Equal(t, before.Grid, now.Grid, "#grid cells %s", after)
}

// TestNumericFieldsRejectBadInput gives every numeric field every bad value:
// a message appears beside it and the simulation stays as it was.
func TestNumericFieldsRejectBadInput(t *testing.T) {
	t.Parallel()
	b := openHooked(t)
	before := readState(b)
	require.Equal(t, "200", before.Status, "the demo is on screen")
	require.Positive(t, before.LogRows)

	for _, id := range numericFields {
		sel := "#" + id
		good := valueOf(b, sel)
		require.NotEmpty(t, good, "%s has a value", sel)
		for _, bad := range badNumbers {
			t.Run(id+"/"+bad.name, func(t *testing.T) {
				withT(b, t)
				setField(b, sel, bad.value)
				waitFor(b, sel+"-error beside the field", fieldErrorShown(id))
				assert.Equal(t, bad.value, valueOf(b, sel), "the field keeps what was typed")
				assertUnchanged(t, b, before, "after "+sel+" = "+bad.value)

				if id == "prompt-tokens" {
					// The request is checked again on Send: still refused,
					// still beside the field, and nothing is sent.
					clickSel(b, "#send")
					settle(b)
					waitFor(b, sel+"-error after Send", fieldErrorShown(id))
					assertUnchanged(t, b, before, "after Send with "+sel+" = "+bad.value)
				}

				setField(b, sel, good)
				waitFor(b, sel+"-error cleared", fieldErrorGone(id))
				assertUnchanged(t, b, before, "after restoring "+sel+" = "+good)
			})
		}
	}

	// A user who types and clicks Send straight away: the field's change
	// event never fires, so only Send can catch the value.
	for _, bad := range badNumbers {
		t.Run("prompt-tokens/send-without-change/"+bad.name, func(t *testing.T) {
			withT(b, t)
			require.Equal(t, 0, countAll(b, "#prompt-tokens-error"))
			setValueOnly(b, "#prompt-tokens", bad.value)
			clickSel(b, "#send")
			waitFor(b, "#prompt-tokens-error after Send", fieldErrorShown("prompt-tokens"))
			assertUnchanged(t, b, before, "after Send with #prompt-tokens = "+bad.value)

			setField(b, "#prompt-tokens", "200")
			waitFor(b, "#prompt-tokens-error cleared", fieldErrorGone("prompt-tokens"))
		})
	}
}

// TestNumericFieldsAcceptReadableNumbers checks the forms people write
// numbers in: thousands separators and binary suffixes.
func TestNumericFieldsAcceptReadableNumbers(t *testing.T) {
	t.Parallel()
	b := openHooked(t)

	t.Run("decode pool 681,280", func(t *testing.T) {
		withT(b, t)
		// The grid is decode's pool. 681,280 tokens in the demo's 16-token
		// pages: 42,580 pages, too many to draw one cell each.
		setField(b, "#decode-pool", "681,280")
		waitFor(b, "the grid redrawn in ranges", jsExists(`#grid .cell[data-page*="-"]`))
		assert.Equal(t, "681,280", valueOf(b, "#decode-pool"))
		assert.Equal(t, 0, countAll(b, "#decode-pool-error"))
		cells := gridCells(b, "")
		require.NotEmpty(t, cells)
		last := cells[len(cells)-1]
		assert.True(t, strings.HasSuffix(last.Page, "-42579"), "last cell %s ends at page 42,579", last)
	})

	t.Run("prefill pool 681,280", func(t *testing.T) {
		withT(b, t)
		// #pool is prefill's: the same 42,580 pages, drawn as its map.
		setField(b, "#pool", "681,280")
		waitFor(b, "prefill's pool of 42,580 pages", `document.querySelector("#pool-prefill").textContent.includes("42,580 pages:")`)
		assert.Equal(t, "681,280", valueOf(b, "#pool"))
		assert.Equal(t, 0, countAll(b, "#pool-error"))
		assert.Equal(t, 1, countAll(b, "#pool-prefill #prefill-map"), "drawn as a map")
	})

	t.Run("context 1Mi", func(t *testing.T) {
		withT(b, t)
		setField(b, "#ctx", "1Mi")
		waitFor(b, "#ctx shown as 1,048,576", `document.querySelector("#ctx").value === "1,048,576"`)
		assert.Equal(t, 0, countAll(b, "#ctx-error"))
		assert.Contains(t, textOf(b, "#capacity"), "1,048,576", "the capacity check uses the new context")
	})

	t.Run("context 1Mi again", func(t *testing.T) {
		// The same entry a second time: the model does not change, but the
		// field must still be rewritten from "1Mi" to the number.
		withT(b, t)
		setField(b, "#ctx", "1Mi")
		settle(b)
		assert.Equal(t, "1,048,576", valueOf(b, "#ctx"))
		assert.Equal(t, 0, countAll(b, "#ctx-error"))
	})

	t.Run("prompt 2k", func(t *testing.T) {
		withT(b, t)
		rows := countAll(b, "#log li[data-step][data-stage]")
		setField(b, "#tenant", "A")
		setField(b, "#prompt-tokens", "2k")
		settle(b)
		assert.Equal(t, 0, countAll(b, "#prompt-tokens-error"))
		clickSel(b, "#send")
		waitLogGrows(b, rows)
		assert.Contains(t, textOf(b, ".status-who"), "2,000 tokens")
	})
}

// Text that a browser would turn into elements if the page put it into
// HTML, even inside a quoted attribute. Each marks what it would make with
// a pwn-* tag and a data-pwn attribute, which nothing else on the page has.
const (
	xssSecret = `"><img src=x onerror=alert(1) data-pwn=secret><pwn-secret></pwn-secret>`
	xssTenant = `"><pwn-tenant data-pwn=tenant>x`
)

// madeFromUntrustedJS lists every element of the document that only
// untrusted text could have made.
const madeFromUntrustedJS = `[...document.querySelectorAll("*")]
	.filter(e => e.tagName.startsWith("PWN-") || e.hasAttribute("data-pwn"))
	.map(e => e.outerHTML.slice(0, 80) + " in " + (e.parentElement ? e.parentElement.id || e.parentElement.className || e.parentElement.tagName : "?"))`

// TestUntrustedTextIsShownAsText sends markup as a request's content, as a
// tenant's name and in links: it must come back as the literal text, with
// no element made from it anywhere in the document and no dialog.
func TestUntrustedTextIsShownAsText(t *testing.T) {
	t.Parallel()
	site := serveTestHooks(t)
	b := newBrowser(t)
	b.Open(site)
	dialogs := watchDialogs(b)
	noMarkup := func(t *testing.T, shown string) {
		t.Helper()
		require.Contains(t, evalJS[string](b, `document.body.textContent`), shown, "the untrusted text reached the page")
		assert.Empty(t, evalJS[[]string](b, madeFromUntrustedJS), "elements made from untrusted text")
	}

	t.Run("secret", func(t *testing.T) {
		withT(b, t)
		resetRun(b)
		// The demo's B: 125 tokens, past prefill's max_req_input_len (122),
		// within decode's (138).
		sendRequest(b, "A", "120", xssSecret)
		sendRequest(b, "B", "125", "summarise my notes")
		assert.Equal(t, "200", textOf(b, "#status"))
		assert.Contains(t, textOf(b, "#response"), "tenant-A:"+xssSecret, "#response shows the leaked secret as text")

		leaked := `#grid .cell.state-leaked`
		require.Positive(t, countAll(b, leaked))
		// Once the app has settled the cells are the run's last, so that
		// this checks how the details show the text, not whether they are
		// up to date (the hover subtest of TestPlaygroundInteractions
		// checks that).
		settle(b)
		hoverOn(b, leaked)
		waitFor(b, "details of a leaked cell", fmt.Sprintf(`document.querySelector("#cell-details").textContent.includes(%s)`, jsLit(xssSecret)))
		assert.Contains(t, evalJS[string](b, fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-label")`, jsLit(leaked))), xssSecret, "cell name")
		noMarkup(t, xssSecret)
	})

	t.Run("tenant name", func(t *testing.T) {
		withT(b, t)
		setField(b, "#tenant", "C")
		setValueOnly(b, "#tenant-name", xssTenant)
		clickSel(b, "#rename")
		waitFor(b, "the renamed tenant selected", fmt.Sprintf(`document.querySelector("#tenant").value === %s`, jsLit(xssTenant)))
		assert.Equal(t, 0, countAll(b, "#tenant-name-error"), textOf(b, "#tenant-name-error"))
		assert.Contains(t, textOf(b, `#tenant option:checked`), xssTenant, "the option's text")

		rows := countAll(b, "#log li[data-step][data-stage]")
		setField(b, "#prompt-tokens", "4")
		setField(b, "#secret", xssSecret)
		clickSel(b, "#send")
		waitLogGrows(b, rows)
		assert.Equal(t, "200", textOf(b, "#status"))
		assert.Contains(t, textOf(b, ".status-line"), "tenant "+xssTenant)
		assert.Contains(t, textOf(b, "#response"), "tenant-"+xssTenant+":"+xssSecret)
		assert.Contains(t, textOf(b, "#log"), xssTenant)
		assert.NotEmpty(t, gridCells(b, fmt.Sprintf(`[data-owner=%s]`, jsLit(xssTenant))), "cells owned by the renamed tenant")
		noMarkup(t, xssTenant)
	})

	t.Run("link", func(t *testing.T) {
		withT(b, t)
		const tenant, content = `'><pwn-link data-pwn=tenant>`, `"><pwn-link data-pwn=content></pwn-link>`
		q := linkQuery("", engine.DemoConfig(), nil) +
			"&op=s," + url.QueryEscape(tenant) + ",120,-," + url.QueryEscape(content) + "&op=s,B,125,-,x"
		b.Open(site + "?" + q)
		waitFor(b, "the leak from the link", `document.querySelector("#status").textContent === "200"`)
		noMarkup(t, content)
		noMarkup(t, tenant)
	})

	t.Run("banner", func(t *testing.T) {
		withT(b, t)
		const preset = `"><pwn-banner data-pwn=preset>`
		b.Open(site + "?v=3&preset=" + url.QueryEscape(preset))
		waitFor(b, "the banner", jsExists("#banner"))
		noMarkup(t, preset)
	})

	assert.Empty(t, dialogs.Seen(), "JavaScript dialogs opened by the page")
	// Prove that the watch would have seen one.
	b.Do(evalVoid(`setTimeout(() => alert("probe"), 0)`))
	dialogs.WaitOne(t)
}
