package main

import (
	"image"
	"image/color"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// wrap breaks text at spaces into lines no wider than width pixels; a word
// wider than the line gets a line of its own.
func wrap(face font.Face, text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if line != "" && font.MeasureString(face, try).Ceil() > width {
			lines = append(lines, line)
			try = w
		}
		line = try
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// text draws s with its baseline at (x, y).
func text(dst *image.RGBA, face font.Face, c color.Color, x, y int, s string) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// centred draws s centred on x, baseline at y.
func centred(dst *image.RGBA, face font.Face, c color.Color, x, y int, s string) {
	text(dst, face, c, x-font.MeasureString(face, s).Ceil()/2, y, s)
}

// capHeight is how far a capital rises above the baseline, for centring a
// line vertically.
func capHeight(face font.Face) int {
	b, _, _ := face.GlyphBounds('H')
	return (-b.Min.Y).Ceil()
}
