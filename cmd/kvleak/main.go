// Command kvleak runs the playground's engine in a terminal.
//
//	go run ./cmd/kvleak demo
//
// prints the article's demo transcript for the vulnerable and the fixed
// engine, computed by the engine (see engine.DemoTranscript), then notes on
// what the article's output does not say (engine.DemoNotes).
//
//	go run ./cmd/kvleak check -prefill prefill.json -decode decode.json
//
// checks a real SGLang prefill/decode pair: each file holds what that
// server answers at GET /get_server_info, or its launch command. It prints
// the verdict (see deploycheck) and exits 0 when the pair is not exposed
// or patched, 1 when it is exposed, 2 on bad input.
//
//	go run ./cmd/kvleak trace [-preset NAME | -link 'URL or query' | -file RUN.json] > run.trace.json
//
// writes a run as a Chrome Trace Event file for Perfetto (engine/trace).
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = "usage: kvleak demo | kvleak check -prefill FILE -decode FILE | kvleak trace [-preset NAME | -link 'URL or query' | -file RUN.json]"

// Exit statuses.
const (
	exitOK       = 0
	exitExposed  = 1 // check: the window is open and the door unpatched
	exitBadInput = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command without the process: it writes to stdout and stderr
// and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "demo":
			return demo(args[1:], stdout, stderr)
		case "check":
			return check(args[1:], stdout, stderr)
		case "trace":
			if err := runTrace(args[1:], stdout); err != nil {
				return fail(stderr, err.Error())
			}
			return exitOK
		}
	}
	return fail(stderr, usage)
}

// fail reports bad input on stderr.
func fail(stderr io.Writer, msg string) int {
	fmt.Fprintln(stderr, "kvleak:", msg)
	return exitBadInput
}
