// Command goappfork writes build/goapp-wasm, kvleak's copy of go-app, and
// build/wasm.mod, the modfile the wasm build links it with; `make wasm`
// runs it. -list prints every edit with what it buys, -hashes the row of
// file hashes for the go-app release go.mod requires. See
// internal/goappfork and docs/upgrading-go-app.md.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"kvleak/internal/goappfork"
)

// Exit codes: 0 written, 1 refused or failed, 2 bad command line.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options is the command line: a Config, or one of the printing modes.
type options struct {
	goappfork.Config
	list, names, hashes, sizes bool
	wasms                      []string // -sizes: the wasm files to compare
}

// run returns the exit code; every failure is one "goappfork: ..." line.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "goappfork: %v\n", err)
		return exitUsage
	}
	switch {
	case o.list:
		writeList(stdout)
	case o.names:
		for _, name := range goappfork.CopyEditNames() {
			fmt.Fprintln(stdout, name)
		}
	case o.sizes:
		err = writeSizes(stdout, o.wasms)
	case o.hashes:
		var row string
		if row, err = goappfork.HashRow(o.GoMod); err == nil {
			fmt.Fprint(stdout, row)
		}
	default:
		err = goappfork.Run(o.Config)
	}
	if err != nil {
		fmt.Fprintf(stderr, "goappfork: %v\n", err)
		return exitFail
	}
	return exitOK
}

// writeList prints each edit: its name, why, what it buys and its tests.
func writeList(w io.Writer) {
	for _, e := range goappfork.Edits {
		fmt.Fprintf(w, "%s\n  why:   %s\n  buys:  %s\n  tests: %s\n", e.Name, e.Reason, e.Buys, strings.Join(e.Tests, ", "))
	}
}

// parseFlags parses and validates args; the usage text goes to usageOut for
// -h only.
func parseFlags(args []string, usageOut io.Writer) (options, error) {
	var o options
	var without string
	fs := flag.NewFlagSet("goappfork", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // we print our own one-line errors
	fs.StringVar(&o.GoMod, "gomod", "go.mod", "the main module's go.mod (go.sum beside it)")
	fs.StringVar(&o.Src, "src", "", "go-app's module directory (default: the module cache's)")
	fs.StringVar(&o.Out, "out", "build/goapp-wasm", "directory for the copy (replaced)")
	fs.StringVar(&o.ModFile, "modfile", "build/wasm.mod", "modfile to write for the wasm build (and its .sum)")
	fs.StringVar(&without, "without", "", "comma-separated edits of the copy to leave out, to measure what they buy")
	fs.BoolVar(&o.list, "list", false, "print every edit, why it is made, what it buys and its tests; write nothing")
	fs.BoolVar(&o.names, "names", false, "print the names of the copy's edits, one a line (make fork-sizes)")
	fs.BoolVar(&o.sizes, "sizes", false, "print the brotli bytes of each wasm file given as an argument, and how many more than the first's (make fork-sizes)")
	fs.BoolVar(&o.hashes, "hashes", false, "print the file hashes of the go-app release -gomod requires, to add to internal/goappfork; write nothing")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(usageOut, "usage: goappfork [flags]")
			fs.SetOutput(usageOut)
			fs.PrintDefaults()
		}
		return options{}, err
	}
	if o.sizes {
		o.wasms = fs.Args()
		if len(o.wasms) == 0 {
			return options{}, errors.New("-sizes: no wasm file given")
		}
	} else if fs.NArg() > 0 {
		return options{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if without != "" {
		o.Without = strings.Split(without, ",")
	}
	if n := countTrue(o.list, o.names, o.sizes, o.hashes); n > 1 {
		return options{}, errors.New("-list, -names, -sizes and -hashes: one at a time")
	}
	return o, o.Validate()
}

// countTrue counts the true values.
func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
