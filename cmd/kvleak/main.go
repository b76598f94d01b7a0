// Command kvleak runs the playground's engine in a terminal.
//
//	go run ./cmd/kvleak demo
//
// prints the article's demo transcript for the vulnerable and the fixed
// engine, computed by the engine (see engine.DemoTranscript), then notes on
// what the article's output does not say (engine.DemoNotes).
package main

import (
	"fmt"
	"io"
	"os"

	"kvleak/engine"
)

const usage = "usage: kvleak demo"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kvleak:", err)
		os.Exit(2)
	}
}

func run(args []string, w io.Writer) error {
	if len(args) > 0 && args[0] == "trace" {
		return runTrace(args[1:], w)
	}
	if len(args) != 1 || args[0] != "demo" {
		return fmt.Errorf("%s", usage)
	}
	lines, err := engine.DemoTranscript()
	if err != nil {
		return err
	}
	notes, err := engine.DemoNotes()
	if err != nil {
		return err
	}
	lines = append(append(lines, ""), notes...)
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}
