package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"kvleak/deploycheck"
)

// check prints the verdict on a prefill/decode pair, each server read from
// a file (deploycheck.CheckText, the same check as the page's).
func check(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	files := map[string]*string{
		"prefill": fs.String("prefill", "", "the prefill server's GET /get_server_info JSON or launch command"),
		"decode":  fs.String("decode", "", "the decode server's GET /get_server_info JSON or launch command"),
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 || *files["prefill"] == "" || *files["decode"] == "" {
		return fail(stderr, usage)
	}
	var text [2]string
	for i, role := range []string{"prefill", "decode"} {
		b, err := readBounded(*files[role])
		if err != nil {
			return fail(stderr, fmt.Sprintf("-%s: %v", role, err))
		}
		text[i] = string(b)
	}
	v, err := deploycheck.CheckText(text[0], text[1])
	var ie *deploycheck.InputError
	if errors.As(err, &ie) && ie.Box != "" {
		return fail(stderr, fmt.Sprintf("-%s %s: %s", ie.Box, *files[ie.Box], ie.Msg))
	}
	if err != nil {
		return fail(stderr, err.Error())
	}
	for _, l := range v.Lines() {
		fmt.Fprintln(stdout, l)
	}
	if v.Status == deploycheck.Exposed {
		return exitExposed
	}
	return exitOK
}

// readBounded reads a file, or as much of it as deploycheck reads and one
// byte more, so that a huge file is refused without being held.
func readBounded(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, deploycheck.MaxInputBytes+1))
}
