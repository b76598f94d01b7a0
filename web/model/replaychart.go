package model

import (
	"fmt"
	"strings"
	"time"

	"kvleak/engine"
	"kvleak/replay"
)

// ReplayChart is the chart of leaked responses over the log's time, each
// bin a bar for the vulnerable door beside one for the fixed door, in an
// SVG user space of ChartW × ChartH; Bins is its text alternative.
type ReplayChart struct {
	Bars   []ChartBar
	XTicks []ChartTick // times along the bottom
	YMax   int         // the count at the top of the scale
	EndX   float64     // where the log's last request arrived
	Bins   []ChartBin  // the bins with a leak through either door
	// Label says what the chart shows in one sentence.
	Label string
}

// The chart's user space and plot area.
const (
	ChartW, ChartH         = 640, 200
	ChartLeft, ChartTop    = 44, 10
	ChartRight             = ChartW - 8
	ChartBottom            = ChartH - 28
	chartPlotW, chartPlotH = ChartRight - ChartLeft, ChartBottom - ChartTop
)

// ChartBar is one door's bar of one bin.
type ChartBar struct {
	X, Y, W, H float64
	Fixed      bool   // the fixed door's; else the vulnerable door's
	Title      string // what the bar counts, for a pointer's tooltip
}

// ChartTick is a label at X along the time axis.
type ChartTick struct {
	X     float64
	Label string
}

// ChartBin is one bin of the text alternative.
type ChartBin struct {
	From, To          string
	Vulnerable, Fixed int
}

// newReplayChart lays out the result's two charts, over the bins that the
// log's span or its last leak reach: a leak counts when its response is
// answered, which a long prealloc wait puts past the log's last request;
// the replay's bins double as time runs on, so the rest lie past both.
func newReplayChart(res replay.Result) ReplayChart {
	vc, fc := res.Vulnerable.Chart, res.Fixed.Chart
	width := max(vc.Width, fc.Width, time.Second)
	n := min(int(res.Span/width)+1, replay.ChartBins)
	for i := n; i < replay.ChartBins; i++ {
		if vc.Bins[i]+fc.Bins[i] > 0 {
			n = i + 1
		}
	}
	c := ReplayChart{YMax: 1}
	for i := range n {
		c.YMax = max(c.YMax, vc.Bins[i], fc.Bins[i])
	}
	slot := float64(chartPlotW) / float64(n)
	bar := slot * 0.4
	at := func(i int) time.Duration { return time.Duration(i) * width }
	for i := range n {
		from, to := spanText(at(i)), spanText(at(i+1))
		x := ChartLeft + float64(i)*slot + slot*0.1
		for j, count := range [2]int{vc.Bins[i], fc.Bins[i]} {
			if count == 0 {
				continue
			}
			h := float64(chartPlotH) * float64(count) / float64(c.YMax)
			door := [2]string{"vulnerable", "fixed"}[j]
			c.Bars = append(c.Bars, ChartBar{X: x + float64(j)*bar, Y: ChartBottom - h, W: bar, H: h, Fixed: j == 1,
				Title: fmt.Sprintf("%s–%s: %s leaked %s through the %s door", from, to, engine.Thousands(int64(count)), plural(count, "response", "responses"), door)})
		}
		if vc.Bins[i]+fc.Bins[i] > 0 {
			c.Bins = append(c.Bins, ChartBin{From: from, To: to, Vulnerable: vc.Bins[i], Fixed: fc.Bins[i]})
		}
	}
	c.EndX = ChartLeft + float64(res.Span)/float64(width)*slot
	for _, i := range []int{0, n / 2, n} {
		c.XTicks = append(c.XTicks, ChartTick{X: ChartLeft + float64(i)*slot, Label: spanText(at(i))})
	}
	if n/2 == 0 {
		c.XTicks = []ChartTick{c.XTicks[0], c.XTicks[2]}
	}
	c.Label = fmt.Sprintf("Leaked responses by the time they were answered, from the log's start, in %d bins of %s (the log spans %s): %s through the vulnerable door, %s through the fixed door.",
		n, spanText(width), spanText(res.Span), engine.Thousands(int64(res.Vulnerable.Leaked)), engine.Thousands(int64(res.Fixed.Leaked)))
	return c
}

// spanText is a time on the chart to the second, its zero parts left
// out: "0s", "29m28s", "59m", "1h2m".
func spanText(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Second {
		return "0s"
	}
	var b strings.Builder
	for _, u := range []struct {
		n    time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if k := d / u.n; k > 0 {
			fmt.Fprintf(&b, "%d%s", k, u.name)
			d -= k * u.n
		}
	}
	return b.String()
}
