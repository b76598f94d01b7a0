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
// server answers at GET /server_info (or /get_server_info), its launch
// command, or its Kubernetes command and args lists. It prints the verdict
// (see deploycheck) and exits 0 when the pair is not exposed or patched, 1
// when it is exposed, 2 on bad input.
//
//	go run ./cmd/kvleak trace [-preset NAME | -link 'URL or query' | -file RUN.json] > run.trace.json
//
// writes a run as a Chrome Trace Event file for Perfetto (engine/trace).
//
//	go run ./cmd/kvleak replay [-preset NAME | -link 'URL or query'] [-json] FILE
//
// streams a request log (ours, Mooncake's or Azure's; see package replay)
// through the vulnerable and the fixed door and prints how many responses
// carried another tenant's KV, whose and to whom: exit 0 when none did, 1
// when some did, 2 on unusable input.
//
//	go run ./cmd/kvleak challenge N (-link 'URL or query' | -file RUN.json) [-answer can|cannot]
//
// checks a run against challenge N of the capture-the-flag ladder (package
// challenge): exit 0 when it solves it, 1 when not, 2 on bad input; -h
// lists the ladder.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

const usage = "usage: kvleak demo | kvleak check -prefill FILE -decode FILE | kvleak trace [-preset NAME | -link 'URL or query' | -file RUN.json] | kvleak replay [flags] FILE | kvleak challenge N -link 'URL or query'"

// Exit statuses.
const (
	exitOK       = 0
	exitExposed  = 1 // check: the window is open and the door unpatched; replay: a response leaked
	exitBadInput = 2
)

func main() {
	os.Exit(runIn(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the command without the process: it writes to stdout and stderr
// and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return runIn(args, strings.NewReader(""), stdout, stderr)
}

// runIn is run with a standard input, which replay can read a log from.
func runIn(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "demo":
			return demo(args[1:], stdout, stderr)
		case "check":
			return check(args[1:], stdout, stderr)
		case "replay":
			return replayLog(args[1:], stdin, stdout, stderr)
		case "challenge":
			return gradeChallenge(args[1:], stdout, stderr)
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
