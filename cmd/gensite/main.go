// Command gensite builds the static website from build/app.wasm and
// static/. See internal/sitegen; `make site` runs it.
package main

import (
	"flag"
	"log"
	"time"

	"kvleak/internal/sitegen"
)

func main() {
	var c sitegen.Config
	flag.StringVar(&c.Out, "out", "build/site", "output directory (replaced)")
	flag.StringVar(&c.Wasm, "wasm", "build/app.wasm", "path to the built app.wasm")
	flag.StringVar(&c.Static, "static", "static", "directory of static assets")
	flag.StringVar(&c.Prefix, "prefix", "", "URL path the site is hosted under, e.g. /kvleak (empty = root)")
	flag.StringVar(&c.Domain, "domain", "", "host the site is served from, e.g. kvleak.example.org, for link previews (og:url, og:image); empty = unknown")
	flag.IntVar(&c.Compress.LargeQuality, "br-large-q", 11, "brotli quality for files >= 1 MiB (the wasm): 11 is the smallest and moves least from build to build, but the slowest")
	flag.Parse()
	if q := c.Compress.LargeQuality; q < 1 || q > 11 {
		log.Fatal("gensite: -br-large-q must be 1..11")
	}

	start := time.Now()
	if err := sitegen.Generate(c); err != nil {
		log.Fatalf("gensite: %v", err)
	}
	log.Printf("gensite: %s (prefix %q) in %s", c.Out, c.Prefix, time.Since(start).Round(time.Millisecond))
}
