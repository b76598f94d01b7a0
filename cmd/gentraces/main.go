// Command gentraces writes the request-log samples the page offers, in our
// compact CSV (t,prompt_tokens,output_tokens), from the published traces in
// ../shared/traces (see its README):
//
//	go generate ./cmd/gentraces
//
// The outputs are committed in static/traces, with their sources and
// licences in static/traces/SOURCES.txt; a test checks they are up to date.
package main

//go:generate go run . -src ../../../shared/traces -out ../../static/traces

import (
	"flag"
	"log"
	"os"
	"path/filepath"
)

// samples maps each sample the page offers to the trace it is made from.
// Azure's conversation trace is left out: at 137 KB compressed (its times
// are to the 100 ns) it is the largest, and the code trace shows the format.
var samples = map[string]string{
	"mooncake-conversation.csv": "mooncake-conversation.jsonl",
	"mooncake-synthetic.csv":    "mooncake-synthetic.jsonl",
	"azure-llm-code-2023.csv":   "azure-llm-code-2023.csv",
}

func main() {
	src := flag.String("src", "../shared/traces", "directory of the published traces")
	out := flag.String("out", "static/traces", "directory to write the samples to")
	flag.Parse()
	for name, from := range samples {
		in, err := os.Open(filepath.Join(*src, from))
		if err != nil {
			log.Fatalf("gentraces: %v", err)
		}
		b, err := compact(in)
		in.Close()
		if err != nil {
			log.Fatalf("gentraces: %s: %v", from, err)
		}
		if err := os.WriteFile(filepath.Join(*out, name), b, 0o644); err != nil {
			log.Fatalf("gentraces: %v", err)
		}
	}
}
