// Command goappfork writes build/goapp-wasm, go-app without its server half,
// and build/wasm.mod, the modfile the wasm build links it with. See
// internal/goappfork; `make wasm` runs it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"kvleak/internal/goappfork"
)

// Exit codes: 0 written, 1 refused or failed, 2 bad command line.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run returns the exit code; every failure is one "goappfork: ..." line.
func run(args []string, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "goappfork: %v\n", err)
		return exitUsage
	}
	if err := goappfork.Run(c); err != nil {
		fmt.Fprintf(stderr, "goappfork: %v\n", err)
		return exitFail
	}
	return exitOK
}

// parseFlags parses and validates args; the usage text goes to usageOut for
// -h only.
func parseFlags(args []string, usageOut io.Writer) (goappfork.Config, error) {
	var c goappfork.Config
	fs := flag.NewFlagSet("goappfork", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // we print our own one-line errors
	fs.StringVar(&c.GoMod, "gomod", "go.mod", "the main module's go.mod (go.sum beside it)")
	fs.StringVar(&c.Src, "src", "", "go-app's module directory (default: the module cache's)")
	fs.StringVar(&c.Out, "out", "build/goapp-wasm", "directory for the slim copy (replaced)")
	fs.StringVar(&c.ModFile, "modfile", "build/wasm.mod", "modfile to write for the wasm build (and its .sum)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(usageOut, "usage: goappfork [flags]")
			fs.SetOutput(usageOut)
			fs.PrintDefaults()
		}
		return goappfork.Config{}, err
	}
	if fs.NArg() > 0 {
		return goappfork.Config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return c, c.Validate()
}
