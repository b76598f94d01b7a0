package main

import "image/color"

// The light theme of static/app.css, so the preview looks like the page.
var (
	bgColor    = hex(0xf7f7f5) // --bg
	textColor  = hex(0x1d1d1f) // --text
	mutedColor = hex(0x4f5157) // --muted
	leakColor  = hex(0xb3141f) // --leak
	leakBg     = hex(0xfde8ea) // --leak-bg
	freeColor  = hex(0xeef0f3) // --free
	lineColor  = hex(0x5d6470) // --t-line
	white      = hex(0xffffff)
)

// tenantColors are --t0 … --t7; tenant i takes i mod 8, as the grid does.
var tenantColors = []color.RGBA{
	hex(0xcfe0ff), hex(0xffe1b8), hex(0xd6f0d2), hex(0xf1d6f5),
	hex(0xd4f1f4), hex(0xf6f0c2), hex(0xe6dcff), hex(0xffd6d6),
}

func tenantColor(i int) color.RGBA {
	if i < 0 {
		return freeColor
	}
	return tenantColors[i%len(tenantColors)]
}

func hex(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}
