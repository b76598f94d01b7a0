package main

import (
	"fmt"
	"image"

	"golang.org/x/image/font"

	"kvleak/internal/preview"
)

const (
	margin     = 60
	tileGap    = 16
	tileTop    = 190
	tileHeight = 160
	verdictTop = 410
	verdictPad = 22
	verdictBar = 10
	// verdictBottom keeps the verdict clear of the footer.
	verdictBottom = preview.Height - 62
)

// plan is where everything goes; drawing follows it, and the tests read it
// to find the tiles in the picture.
type plan struct {
	tiles      []image.Rectangle
	badge      image.Rectangle
	verdictBox image.Rectangle
	verdict    []string // the scene's verdict, wrapped
	face       font.Face
	size       float64 // face's, in pixels
	lineGap    int     // baseline to baseline
}

func layout(s preview.Scene, f faces) (plan, error) {
	n := len(s.Tiles)
	if n == 0 || n > preview.MaxTiles {
		return plan{}, fmt.Errorf("preview: %d tiles: must be between 1 and %d", n, preview.MaxTiles)
	}
	var p plan
	w := (preview.Width - 2*margin - (n-1)*tileGap) / n
	x := (preview.Width - n*w - (n-1)*tileGap) / 2
	for range n {
		p.tiles = append(p.tiles, image.Rect(x, tileTop, x+w, tileTop+tileHeight))
		x += w + tileGap
	}

	bw := font.MeasureString(f.badge, badgeText(s)).Ceil() + 2*24
	p.badge = image.Rect(preview.Width-margin-bw, 28, preview.Width-margin, 100)

	inner := preview.Width - 2*margin - verdictBar - 2*verdictPad
	for i, face := range f.verdict {
		p.face, p.size, p.lineGap = face, verdictSizes[i], face.Metrics().Height.Ceil()+4
		p.verdict = balance(face, s.Verdict, inner)
		h := 2*verdictPad + (len(p.verdict)-1)*p.lineGap + capHeight(face) + 12
		p.verdictBox = image.Rect(margin, verdictTop, preview.Width-margin, verdictTop+h)
		if p.verdictBox.Max.Y <= verdictBottom {
			return p, nil
		}
	}
	return plan{}, fmt.Errorf("preview: the verdict (%d characters) does not fit the picture even in %d lines", len(s.Verdict), len(p.verdict))
}

// balance wraps text into as few lines as fit width, then narrows them
// while the count holds, so the last line is not a lone word.
func balance(face font.Face, text string, width int) []string {
	lines := wrap(face, text, width)
	for w := width - 8; w > 0; w -= 8 {
		narrower := wrap(face, text, w)
		if len(narrower) > len(lines) {
			break
		}
		lines = narrower
	}
	return lines
}

func badgeText(s preview.Scene) string { return fmt.Sprintf("HTTP %d", s.Status) }
