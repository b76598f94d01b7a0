package main

import (
	"fmt"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// faces are the sizes the preview draws with, in pixels. The Go fonts ship
// inside x/image, so the build needs no font file of its own.
type faces struct {
	title, subtitle, badge, letter, label, footer font.Face
	// verdict is largest first: a long verdict takes a smaller size
	// rather than running into the footer.
	verdict []font.Face
}

var verdictSizes = []float64{40, 32, 26}

func newFaces() (faces, error) {
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return faces{}, fmt.Errorf("preview: bold font: %w", err)
	}
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return faces{}, fmt.Errorf("preview: regular font: %w", err)
	}
	var f faces
	for _, s := range []struct {
		dst  *font.Face
		font *opentype.Font
		size float64
	}{
		{&f.title, bold, 46}, {&f.subtitle, regular, 26}, {&f.badge, bold, 50},
		{&f.letter, bold, 72}, {&f.label, bold, 22}, {&f.footer, regular, 24},
	} {
		if *s.dst, err = newFace(s.font, s.size); err != nil {
			return faces{}, err
		}
	}
	f.verdict = make([]font.Face, len(verdictSizes))
	for i, size := range verdictSizes {
		if f.verdict[i], err = newFace(bold, size); err != nil {
			return faces{}, err
		}
	}
	return f, nil
}

func newFace(f *opentype.Font, size float64) (font.Face, error) {
	// DPI 72 makes a point a pixel.
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("preview: %gpx font face: %w", size, err)
	}
	return face, nil
}
