package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"kvleak/deploycheck"
	"kvleak/web/model"
)

// check prints the verdict on a prefill/decode pair, each server read from
// a file, and the link that replays it: model.CheckDeployment, the same
// check as the page's panel.
func check(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	files := map[string]*string{
		"prefill": fs.String("prefill", "", "the prefill server's GET /server_info JSON, launch command or Kubernetes args list"),
		"decode":  fs.String("decode", "", "the decode server's GET /server_info JSON, launch command or Kubernetes args list"),
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
	view := model.CheckDeployment(text[0], text[1])
	if view.Status == "" {
		if view.Box == "" {
			return fail(stderr, view.Problem)
		}
		return fail(stderr, fmt.Sprintf("-%s %s: %s", view.Box, *files[view.Box], view.Problem))
	}
	for _, l := range view.Lines {
		fmt.Fprintln(stdout, l)
	}
	if view.Link != "" {
		fmt.Fprintf(stdout, "replay:  open the playground with ?%s\n         %s\n", view.Link, view.LinkNote)
	} else {
		fmt.Fprintln(stdout, "replay:  "+view.LinkNote)
	}
	if view.Status == deploycheck.Exposed {
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
