package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// help is what a command's -h prints, in the style of the Go tools: its
// usage line, what it does, its flags with their meaning and default
// (flag.PrintDefaults), an example and its exit status.
type help struct {
	usage   string // "usage: kvleak replay [flags] LOG"
	about   string // paragraphs, before the flags
	example string
	exit    string
}

// newFlags is a command's flag set; parse reports its errors and -h.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse reads a command's flags. -h or -help prints its help on stdout
// (exit 0); a flag it does not know, or a bad value, is said on stderr
// with the usage line (exit 2). ok says whether to go on.
func (h help) parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (ok bool, code int) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		h.write(stdout, fs)
		return false, exitOK
	case err != nil:
		return false, h.fail(stderr, fs, err.Error())
	}
	return true, exitOK
}

// fail reports a misuse of the command: the reason, its usage line and
// where the flags are explained.
func (h help) fail(stderr io.Writer, fs *flag.FlagSet, reason string) int {
	fmt.Fprintf(stderr, "kvleak: %s\n%s\nRun 'kvleak %s -h' for its flags.\n", reason, h.usage, fs.Name())
	return exitBadInput
}

func (h help) write(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "%s\n\n%s\n", h.usage, strings.TrimSpace(h.about))
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nThe flags are:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	fmt.Fprintf(w, "\nExample:\n\n\t%s\n\nExit status: %s\n", h.example, h.exit)
}

// topHelp is kvleak -h: the commands, an example of each, the exit status.
const topHelp = `Kvleak runs the playground's engine in a terminal: the article's demo,
the check of a real SGLang prefill/decode pair, a request log replayed
through the vulnerable and the fixed door, a run as a Perfetto trace, and
a run graded against the capture-the-flag ladder.

Usage:

	kvleak <command> [flags] [arguments]

The commands are:

	demo      print the article's demo transcript for both engines
	check     check a prefill/decode pair for the leak's window
	replay    replay a request log: which responses carried whose KV
	trace     write a run as a Chrome Trace Event file for Perfetto
	challenge grade a run against challenge N of the ladder

Use "kvleak <command> -h" for a command's flags and an example.

Examples:

	kvleak demo
	kvleak check -prefill prefill.json -decode decode.json
	kvleak replay -prefill prefill.json -decode decode.json -pairs pairs.csv -tenants tenants.csv requests.csv
	kvleak trace -preset glm-launch > run.trace.json
	kvleak challenge 1 -link '?v=4&preset=demo&op=s,B,125'

From the check to whom to tell: check says whether the window is open on
the pair; replay, given the same two files and the pair's request log,
writes every victim → recipient pair (-pairs) and every exposed tenant
(-tenants) as CSV.

Exit status: 0 nothing found (not exposed or patched; no response leaked),
1 found (check: exposed; replay: a response leaked), 2 bad input or usage.
`

// isHelp says whether the words ask for help.
func isHelp(a string) bool {
	switch a {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}
