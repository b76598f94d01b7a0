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
//	go run ./cmd/kvleak replay [-prefill FILE -decode FILE | -preset NAME | -link 'URL or query' | -context N …] [-instances N] [-pairs FILE] [-tenants FILE] [-json] LOG
//
// streams a request log (ours, Mooncake's or Azure's; see package replay)
// through the vulnerable and the fixed door, at the settings of the two
// servers check reads (or a preset's, a link's or the numbers given), and
// prints how many responses carried another tenant's KV, whose and to
// whom; -pairs and -tenants write them as CSV: exit 0 when none did, 1
// when some did, 2 on unusable input.
//
//	go run ./cmd/kvleak challenge N (-link 'URL or query' | -file RUN.json) [-answer can|cannot]
//
// checks a run against challenge N of the capture-the-flag ladder (package
// challenge): exit 0 when it solves it, 1 when not, 2 on bad input; -h
// lists the ladder.
//
// Each command's -h lists its flags, with an example (help.go).
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

const usage = "usage: kvleak <command> [flags] [arguments]: demo, check, replay, trace or challenge"

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
	if len(args) == 0 {
		return fail(stderr, usage+"\nRun 'kvleak -h' for the commands.")
	}
	switch args[0] {
	case "demo":
		return demo(args[1:], stdout, stderr)
	case "check":
		return check(args[1:], stdout, stderr)
	case "replay":
		return replayLog(args[1:], stdin, stdout, stderr)
	case "trace":
		return runTrace(args[1:], stdout, stderr)
	case "challenge":
		return gradeChallenge(args[1:], stdout, stderr)
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, topHelp)
		return exitOK
	}
	return fail(stderr, fmt.Sprintf("unknown command %q\n%s\nRun 'kvleak -h' for the commands.", args[0], usage))
}

// fail reports bad input on stderr.
func fail(stderr io.Writer, msg string) int {
	fmt.Fprintln(stderr, "kvleak:", msg)
	return exitBadInput
}
