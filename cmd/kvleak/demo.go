package main

import (
	"fmt"
	"io"

	"kvleak/engine"
)

// demo prints the article's demo transcript.
func demo(args []string, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		return fail(stderr, usage)
	}
	lines, err := engine.DemoTranscript()
	if err != nil {
		return fail(stderr, err.Error())
	}
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	return exitOK
}
