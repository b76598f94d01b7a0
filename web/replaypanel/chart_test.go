package replaypanel

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

// The chart is well-formed SVG with a bar for each door's bin that has a
// leak, the fixed door's hatched, and text escaped.
func TestChartSVG(t *testing.T) {
	c := model.ReplayChart{
		YMax: 4, EndX: 300, Label: `a "label" <b>`,
		Bars: []model.ChartBar{
			{X: 50, Y: 100, W: 4, H: 72, Title: "0s–1m: 4 leaked"},
			{X: 54, Y: 154, W: 4, H: 18, Fixed: true, Title: "0s–1m: 1 leaked"},
		},
		XTicks: []model.ChartTick{{X: model.ChartLeft, Label: "0s"}, {X: 300, Label: "1m"}, {X: model.ChartRight, Label: "2m"}},
	}
	svg := chartSVG(c)
	dec := xml.NewDecoder(strings.NewReader(svg))
	rects := map[string]int{}
	for {
		tok, err := dec.Token()
		if err != nil {
			require.ErrorContains(t, err, "EOF", "well-formed")
			break
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "rect" {
			for _, a := range el.Attr {
				if a.Name.Local == "class" {
					rects[a.Value]++
				}
			}
		}
	}
	assert.Equal(t, map[string]int{"bar bar-vulnerable": 1, "bar bar-fixed": 1, "hatch-bg": 1}, rects)
	assert.Contains(t, svg, `<title id="replay-chart-title">a &quot;label&quot; &lt;b&gt;</title>`)
	assert.Contains(t, svg, `>log ends<`)
	assert.Contains(t, svg, `text-anchor="end">2m<`)
	assert.Contains(t, svg, `role="img"`)
}
