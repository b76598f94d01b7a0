package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"kvleak/deploycheck"
)

var checkHelp = help{
	usage: "usage: kvleak check -prefill FILE -decode FILE",
	about: `Check says whether the leak's window is open on a real SGLang
prefill/decode pair, and whether its release carries the fix. Each file
holds what that server answers at GET /server_info (or /get_server_info),
the command that launches it (python -m sglang.launch_server …), or its
Kubernetes command and args lists. It prints each server's limits, the
window between them and a link that replays the pair in the playground;
the same two files give kvleak replay its settings.`,
	example: "kvleak check -prefill prefill.json -decode decode.json",
	exit:    "0 not exposed or patched, 1 exposed, 2 bad input.",
}

// serverFlags are the -prefill and -decode flags check and replay share.
type serverFlags struct{ prefill, decode *string }

func addServerFlags(fs *flag.FlagSet) serverFlags {
	return serverFlags{
		prefill: fs.String("prefill", "", "the prefill server's GET /server_info JSON, launch command or Kubernetes args list, in `FILE`"),
		decode:  fs.String("decode", "", "the decode server's GET /server_info JSON, launch command or Kubernetes args list, in `FILE`"),
	}
}

// read reads the two files, as much of each as deploycheck reads.
func (sf serverFlags) read() (prefill, decode string, err error) {
	var text [2]string
	for i, f := range []struct{ role, name string }{{"prefill", *sf.prefill}, {"decode", *sf.decode}} {
		b, err := readBounded(f.name)
		if err != nil {
			return "", "", fmt.Errorf("-%s: %v", f.role, err)
		}
		text[i] = string(b)
	}
	return text[0], text[1], nil
}

// box names a refused box by its flag and file.
func (sf serverFlags) box(box, problem string) string {
	switch box {
	case "prefill":
		return fmt.Sprintf("-prefill %s: %s", *sf.prefill, problem)
	case "decode":
		return fmt.Sprintf("-decode %s: %s", *sf.decode, problem)
	}
	return problem
}

// check prints the verdict on a prefill/decode pair, each server read from
// a file, and the link that replays it: deploycheck.CheckReport, the same
// check as the page's panel.
func check(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check")
	servers := addServerFlags(fs)
	if ok, code := checkHelp.parse(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 0 || *servers.prefill == "" || *servers.decode == "" {
		return checkHelp.fail(stderr, fs, "check needs -prefill FILE and -decode FILE, and no arguments")
	}
	prefill, decode, err := servers.read()
	if err != nil {
		return fail(stderr, err.Error())
	}
	view := deploycheck.CheckReport(prefill, decode)
	if view.Status == "" {
		return fail(stderr, servers.box(view.Box, view.Problem))
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
