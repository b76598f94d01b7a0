package web

import (
	"html"
	"strconv"
	"strings"

	"kvleak/web/model"
)

// gridHTML renders the grid as one element. Up to 512 cells are one
// innerHTML swap instead of 512 diffed nodes with 2,048 listeners, and it
// lets every cell carry data-owner="" when it has no owner (go-app drops
// empty attributes). Every value is HTML-escaped: tenant names and secrets
// are text, never markup. Events are handled on the wrapper (poolevents.go).
func gridHTML(g model.GridView, focus int) string {
	var b strings.Builder
	b.Grow(len(g.Cells) * 320)
	cls := "grid"
	if g.Tiles {
		cls += " tiles"
	}
	b.WriteString(`<div id="grid" class="` + cls + `" role="group" aria-label="KV pool pages">`)
	focus = min(focus, len(g.Cells)-1)
	for i, c := range g.Cells {
		label := cellName(c)
		tab := "-1"
		if i == focus {
			tab = "0"
		}
		b.WriteString(`<button type="button" class="`)
		b.WriteString(html.EscapeString(cellClass(c)))
		b.WriteString(`" tabindex="` + tab + `" data-idx="` + strconv.Itoa(i) + `" data-page="`)
		b.WriteString(html.EscapeString(c.Page))
		b.WriteString(`" data-owner="`)
		b.WriteString(html.EscapeString(c.Owner))
		b.WriteString(`" data-state="`)
		b.WriteString(html.EscapeString(string(c.State)))
		b.WriteString(`" aria-label="`)
		b.WriteString(html.EscapeString(label))
		b.WriteString(`" title="`)
		b.WriteString(html.EscapeString(label))
		b.WriteString(`">`)
		if g.Tiles { // the mark, who wrote the page and what it holds
			// Spaces between the parts: the visible text reads as the start
			// of the accessible name (cellName).
			b.WriteString(`<span class="tile-mark">` + html.EscapeString(c.Mark) + `</span>`)
			if c.Writer != "" {
				b.WriteString(` <span class="tile-who">` + html.EscapeString(c.Writer) + `</span> <span class="tile-text">` + html.EscapeString(c.Text) + `</span>`)
			}
			if c.Window {
				b.WriteString(` <span class="tile-window">` + windowWords(c) + `</span>`)
			}
		} else {
			b.WriteString(html.EscapeString(c.Mark))
		}
		b.WriteString(`</button>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// cellName is a cell's accessible name: its visible mark first (WCAG 2.5.3,
// label in name), then the details, and how to zoom into a range.
func cellName(c model.CellView) string {
	var shown []string // what the cell shows, in its order
	if c.Mark != "·" {
		shown = append(shown, c.Mark)
	}
	if c.Writer != "" {
		shown = append(shown, c.Writer, c.Text)
	}
	if c.Window {
		shown = append(shown, windowWords(c))
	}
	name := c.Label
	if len(shown) > 0 {
		name = strings.Join(shown, " ") + " — " + name
	}
	if c.First != c.Last {
		name += ". Select to zoom in."
	}
	return name
}

func cellClass(c model.CellView) string {
	cls := "cell state-" + string(c.State)
	if c.Tenant >= 0 {
		cls += " tenant-" + strconv.Itoa(c.Tenant%8)
	}
	if c.Touched {
		cls += " touched"
	}
	if c.Window {
		cls += " in-window"
	}
	if c.Wrote {
		cls += " wrote"
	}
	return cls
}

// windowWords says, on a tile in decode's read window, whether the
// request's prefill wrote it.
func windowWords(c model.CellView) string {
	if c.Wrote {
		return "prefill wrote this"
	}
	return "reserved, not written"
}
