package replay

import "time"

// ChartBins is how many bins a Chart keeps: when the log runs past them,
// neighbouring bins merge and each covers twice the time, so the chart
// costs the same for an hour's log as for a year's.
const ChartBins = 64

// Chart counts events over the log's time in ChartBins bins of Width each,
// from the log's origin.
type Chart struct {
	Width time.Duration  `json:"widthNs"`
	Bins  [ChartBins]int `json:"bins"`
}

// add counts one event at t.
func (c *Chart) add(t time.Duration) {
	if c.Width == 0 {
		c.Width = time.Second
	}
	for t >= c.Width*ChartBins {
		c.double()
	}
	c.Bins[max(t, 0)/c.Width]++
}

// double merges neighbouring bins.
func (c *Chart) double() {
	for i := range ChartBins / 2 {
		c.Bins[i] = c.Bins[2*i] + c.Bins[2*i+1]
	}
	clear(c.Bins[ChartBins/2:])
	c.Width *= 2
}

// widen makes the chart's bins at least w wide, so that two charts of one
// log share their bins.
func (c *Chart) widen(w time.Duration) {
	if c.Width == 0 {
		c.Width = time.Second
	}
	for c.Width < w {
		c.double()
	}
}
