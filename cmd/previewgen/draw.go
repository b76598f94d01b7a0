package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"kvleak/internal/preview"
)

// title is the one line the engine has no say in: what the playground is.
const (
	title  = "The multi-tenant KV-cache leak"
	footer = "KV-cache leak playground · reproduce the leak in your browser"
)

// PNG draws the scene and encodes it.
func PNG(s preview.Scene) ([]byte, error) {
	img, err := Draw(s)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("preview: encoding: %w", err)
	}
	return b.Bytes(), nil
}

// Draw draws the scene at preview.Width × preview.Height.
func Draw(s preview.Scene) (*image.RGBA, error) {
	f, err := newFaces()
	if err != nil {
		return nil, err
	}
	p, err := layout(s, f)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, preview.Width, preview.Height))
	fill(img, img.Rect, bgColor)

	text(img, f.title, textColor, margin, 84, title)
	text(img, f.subtitle, mutedColor, margin, 130,
		fmt.Sprintf("The %d KV pages tenant %s's request read; each names the tenant whose KV it holds", len(s.Tiles), s.Reader))

	accent := textColor
	if s.Leaked > 0 {
		accent = leakColor // a 200 that carried another tenant's pages
	}
	fill(img, p.badge, accent)
	centred(img, f.badge, white, mid(p.badge).X, mid(p.badge).Y+capHeight(f.badge)/2, badgeText(s))

	for i, t := range s.Tiles {
		drawTile(img, f, p.tiles[i], t)
	}
	drawVerdict(img, p, s.Leaked > 0)
	text(img, f.footer, mutedColor, margin, preview.Height-26, footer)
	return img, nil
}

// drawTile marks a leaked page three ways besides its colour, as the grid
// does: a thick leak outline over stripes, a "!" and the word LEAKED.
func drawTile(img *image.RGBA, f faces, r image.Rectangle, t preview.Tile) {
	c := mid(r)
	centred(img, f.label, mutedColor, c.X, r.Min.Y-14, fmt.Sprintf("page %d", t.Page))
	fill(img, r, tenantColor(t.Color))
	letter, word, wordColor := textColor, "own", mutedColor
	if t.Owner == "" {
		word = "empty"
	}
	if t.Leaked {
		stripes(img, r, leakBg)
		outline(img, r, 6, leakColor)
		letter, word, wordColor = leakColor, "LEAKED", leakColor
		bang := image.Pt(r.Max.X-22, r.Min.Y+22)
		disc(img, bang, 14, leakColor)
		centred(img, f.label, white, bang.X, bang.Y+capHeight(f.label)/2, "!")
	} else {
		outline(img, r, 2, lineColor)
	}
	if t.Owner != "" {
		centred(img, f.letter, letter, c.X, c.Y+capHeight(f.letter)/2, t.Owner)
	}
	centred(img, f.label, wordColor, c.X, r.Max.Y+34, word)
}

func drawVerdict(img *image.RGBA, p plan, leaked bool) {
	fg, bg := hex(0x1d6b35), hex(0xe5f4ea) // --ok, --ok-bg
	if leaked {
		fg, bg = leakColor, leakBg
	}
	box := p.verdictBox
	fill(img, box, bg)
	fill(img, image.Rect(box.Min.X, box.Min.Y, box.Min.X+verdictBar, box.Max.Y), fg)
	y := box.Min.Y + verdictPad + capHeight(p.face) + 6
	for _, line := range p.verdict {
		text(img, p.face, fg, box.Min.X+verdictBar+verdictPad, y, line)
		y += p.lineGap
	}
}

func mid(r image.Rectangle) image.Point { return r.Min.Add(r.Size().Div(2)) }

func fill(img *image.RGBA, r image.Rectangle, c color.Color) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// outline draws a border w pixels wide inside r.
func outline(img *image.RGBA, r image.Rectangle, w int, c color.Color) {
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), c)
	fill(img, image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), c)
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+w, r.Max.Y), c)
	fill(img, image.Rect(r.Max.X-w, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// stripes paints diagonal bands, counted from the tile's corner so every
// leaked tile carries the same pattern.
func stripes(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if (x-r.Min.X+y-r.Min.Y)%14 < 6 {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

func disc(img *image.RGBA, c image.Point, radius int, col color.RGBA) {
	for y := -radius; y <= radius; y++ {
		for x := -radius; x <= radius; x++ {
			if x*x+y*y <= radius*radius {
				img.SetRGBA(c.X+x, c.Y+y, col)
			}
		}
	}
}
