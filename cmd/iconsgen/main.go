// Command iconsgen draws the playground's icons (SVG and PNGs) from one
// design in Go, so no image tool is needed and the PNGs can be regenerated:
//
//	go generate ./cmd/iconsgen
//
// The outputs are committed in static/; a test checks they are up to date.
package main

//go:generate go run . -out ../../static

import (
	"flag"
	"log"
	"os"
	"path/filepath"
)

// files maps each output name to how it is made.
var files = map[string]func() ([]byte, error){
	"icon.svg":              func() ([]byte, error) { return SVG(), nil },
	"icon-192.png":          func() ([]byte, error) { return PNG(192, false) },
	"icon-512.png":          func() ([]byte, error) { return PNG(512, false) },
	"icon-maskable-512.png": func() ([]byte, error) { return PNG(512, true) },
}

func main() {
	out := flag.String("out", "static", "directory to write the icons to")
	flag.Parse()
	for name, make := range files {
		b, err := make()
		if err != nil {
			log.Fatalf("iconsgen: %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(*out, name), b, 0o644); err != nil {
			log.Fatalf("iconsgen: %v", err)
		}
	}
}
