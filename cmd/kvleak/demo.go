package main

import (
	"fmt"
	"io"

	"kvleak/engine"
)

// demo prints the article's demo transcript, then its notes.
func demo(args []string, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		return fail(stderr, usage)
	}
	lines, err := engine.DemoTranscript()
	if err != nil {
		return fail(stderr, err.Error())
	}
	notes, err := engine.DemoNotes()
	if err != nil {
		return fail(stderr, err.Error())
	}
	lines = append(append(lines, ""), notes...)
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	return exitOK
}
