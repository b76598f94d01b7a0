package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every link in an embed, its folded settings opened, keeps embed=1 or
// opens a new tab: none loads the whole playground inside the host's frame.
// Here the compact embed (with the door's "See it" links in its settings)
// and a read-only one; each view= panel in TestCompactEmbedShowsOnePanel;
// the theme changes no link.
func TestEmbedLinksStayInTheEmbed(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	site := serveSite(t)
	for _, q := range []string{compactEmbed, compactEmbed + "&ro=1"} {
		t.Run(q, func(t *testing.T) {
			withT(b, t)
			b.Open(site + q)
			waitFor(b, "the embed", `document.querySelector("#playground.embed[data-ready=true]") !== null`)
			assertLinksStayInTheEmbed(t, b)
			if q != compactEmbed {
				return
			}
			seeIt := evalJS[[]string](b, `[...document.querySelectorAll("#door a[data-preset]")].map(a => a.getAttribute("href"))`)
			require.Len(t, seeIt, 4, "the door checklist's four See it links")
			for _, h := range seeIt {
				assert.Contains(t, h, "&embed=1", "%s", h)
			}
		})
	}
}

// assertLinksStayInTheEmbed opens every disclosure of the embed in b and
// fails on a link that neither keeps embed=1 nor opens a new tab.
func assertLinksStayInTheEmbed(t *testing.T, b *browser) {
	t.Helper()
	type link struct{ Href, Text string }
	waitLate(b)
	b.Do(evalVoid(`document.querySelectorAll("#playground details").forEach(d => d.open = true)`))
	all := evalJS[int](b, `document.querySelectorAll("a[href]").length`)
	bad := evalJS[[]link](b, `[...document.querySelectorAll("a[href]")].filter(a =>
		a.target !== "_blank" && new URL(a.href).searchParams.get("embed") !== "1").map(a => ({Href: a.getAttribute("href"), Text: a.textContent.trim()}))`)
	t.Logf("%d links", all)
	assert.Empty(t, bad, "same-tab links that leave the embed")
}
