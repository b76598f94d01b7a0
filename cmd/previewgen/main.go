// Command previewgen draws the link preview, the 1200×630 picture a chat
// or social site shows for a shared link to the playground: the article's
// demo run as the engine replays it (internal/preview's scene), so no image
// tool is needed and the picture can be drawn again when the engine changes:
//
//	go generate ./cmd/previewgen
//
// The output is committed as static/preview.png, which the site serves as
// web/preview.png; a test checks it is up to date.
package main

//go:generate go run . -out ../../static/preview.png

import (
	"flag"
	"log"
	"os"

	"kvleak/internal/preview"
)

func main() {
	out := flag.String("out", "static/preview.png", "file to write the picture to")
	flag.Parse()
	s, err := preview.Preset("demo")
	if err == nil {
		var b []byte
		if b, err = PNG(s); err == nil {
			err = os.WriteFile(*out, b, 0o644)
		}
	}
	if err != nil {
		log.Fatalf("previewgen: %v", err)
	}
}
