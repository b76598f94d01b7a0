package main

import (
	"fmt"
	"io"

	"kvleak/engine"
)

var demoHelp = help{
	usage: "usage: kvleak demo",
	about: `Demo prints the article's demo transcript for the vulnerable and the fixed
engine, computed by the engine at the demo preset's settings, then notes on
what the article's output does not say. It takes no flags.`,
	example: "kvleak demo",
	exit:    "0 printed, 2 given arguments.",
}

// demo prints the article's demo transcript, then its notes.
func demo(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("demo")
	if ok, code := demoHelp.parse(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 0 {
		return demoHelp.fail(stderr, fs, "demo takes no arguments")
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
