package replaypanel

import (
	"strconv"
	"strings"

	"kvleak/web/model"
)

// chartSVG is the chart as plain SVG markup, rendered as a raw element:
// every word in it is the model's, escaped all the same. Its colours are
// the page's variables (app.css); the fixed door's bars are hatched, so
// the two doors differ by more than colour.
func chartSVG(c model.ReplayChart) string {
	var b strings.Builder
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	b.WriteString(`<svg id="replay-chart" class="replay-chart" viewBox="0 0 ` + strconv.Itoa(model.ChartW) + ` ` + strconv.Itoa(model.ChartH) +
		`" role="img" aria-labelledby="replay-chart-title" aria-describedby="replay-chart-bins">`)
	b.WriteString(`<title id="replay-chart-title">` + esc(c.Label) + `</title>`)
	b.WriteString(`<defs><pattern id="replay-hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="4" height="4" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="4" class="hatch-line"/></pattern></defs>`)
	left, right, top, bottom := num(model.ChartLeft), num(model.ChartRight), num(model.ChartTop), num(model.ChartBottom)
	b.WriteString(`<line class="grid" x1="` + left + `" y1="` + top + `" x2="` + right + `" y2="` + top + `"/>`)
	b.WriteString(`<text class="tick" x="` + num(model.ChartLeft-6) + `" y="` + num(model.ChartTop+4) + `" text-anchor="end">` + strconv.Itoa(c.YMax) + `</text>`)
	b.WriteString(`<text class="tick" x="` + num(model.ChartLeft-6) + `" y="` + num(model.ChartBottom+4) + `" text-anchor="end">0</text>`)
	if c.EndX > model.ChartLeft && c.EndX < model.ChartRight {
		b.WriteString(`<line class="end" x1="` + num(c.EndX) + `" y1="` + top + `" x2="` + num(c.EndX) + `" y2="` + bottom + `"/>`)
		b.WriteString(`<text class="tick" x="` + num(c.EndX+3) + `" y="` + num(model.ChartTop+12) + `">log ends</text>`)
	}
	for _, bar := range c.Bars {
		cls := "bar bar-vulnerable"
		if bar.Fixed {
			cls = "bar bar-fixed"
		}
		b.WriteString(`<rect class="` + cls + `" x="` + num(bar.X) + `" y="` + num(bar.Y) + `" width="` + num(bar.W) + `" height="` + num(bar.H) + `"><title>` + esc(bar.Title) + `</title></rect>`)
	}
	b.WriteString(`<line class="axis" x1="` + left + `" y1="` + bottom + `" x2="` + right + `" y2="` + bottom + `"/>`)
	for i, t := range c.XTicks {
		anchor := "middle"
		switch i {
		case 0:
			anchor = "start"
		case len(c.XTicks) - 1:
			anchor = "end"
		}
		b.WriteString(`<text class="tick" x="` + num(t.X) + `" y="` + num(model.ChartBottom+18) + `" text-anchor="` + anchor + `">` + esc(t.Label) + `</text>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

func esc(s string) string { return escaper.Replace(s) }
