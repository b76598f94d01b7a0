package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"kvleak/challenge"
	"kvleak/engine"
)

const challengeUsage = "usage: kvleak challenge N (-link 'URL or query' | -file RUN.json) [-answer can|cannot]"

// exitNotSolved is challenge's status for a run that does not solve it.
const exitNotSolved = 1

// gradeChallenge checks a run — a permalink's or an exported run file's —
// against challenge N of the ladder, as the page's challenge panel does:
// exit 0 when it solves it, 1 when not, 2 on bad input.
func gradeChallenge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("challenge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	link := fs.String("link", "", "the run's permalink, or its query")
	file := fs.String("file", "", "the run, as Export JSON saved it")
	answer := fs.String("answer", "", "the answer to a challenge's question: can or cannot")
	pos, err := parseInterleaved(fs, args)
	n := 0
	switch {
	case errors.Is(err, flag.ErrHelp):
		challengeHelp(stdout, fs)
		return exitOK
	case err == nil && len(pos) == 1 && (*link == "") != (*file == ""):
		n, err = parseChallenge(pos[0])
	case err == nil:
		err = errors.New(challengeUsage)
	default:
		err = fmt.Errorf("%v; %s", err, challengeUsage)
	}
	if err != nil {
		return fail(stderr, err.Error())
	}
	c, err := challenge.Get(n)
	if err != nil {
		return fail(stderr, err.Error())
	}
	a, err := challenge.ParseAnswer(*answer)
	if err != nil {
		return fail(stderr, "-answer: "+err.Error())
	}
	_, cfg, ops, err := traceRun("", *link, *file)
	if err != nil {
		return fail(stderr, err.Error())
	}
	e, err := engine.Replay(cfg, ops)
	if err != nil {
		return fail(stderr, "the run cannot be replayed: "+err.Error())
	}
	v := c.Check(e, a)
	fmt.Fprintf(stdout, "challenge %d: %s\ngoal:     %s\n", n, c.Title, c.Goal)
	if c.Question != "" {
		fmt.Fprintf(stdout, "question: %s (-answer can or cannot)\n", c.Question)
	}
	verdict := "not solved"
	if v.Solved {
		verdict = "solved"
	}
	fmt.Fprintf(stdout, "verdict:  %s: %s\n", verdict, v.Says)
	if f := v.Fair(); f != "" {
		fmt.Fprintf(stdout, "rules:    %s\n", f)
	}
	if !v.Solved {
		return exitNotSolved
	}
	fmt.Fprintf(stdout, "lesson:   %s\n", c.Lesson)
	return exitOK
}

// parseInterleaved parses flags before and after the arguments that are
// not flags ("challenge N -link Q", as the usage writes it, or "-link Q
// N"), and returns those arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
}

func parseChallenge(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("challenge %q: a number from 1 to %d", clipArg(s), len(challenge.Ladder()))
	}
	return n, nil
}

// clipArg shortens an argument quoted in a message.
func clipArg(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// challengeHelp is -h: the usage, the flags and the ladder.
func challengeHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, challengeUsage)
	fmt.Fprintln(w, "\nChecks a run against challenge N of the capture-the-flag ladder: exit 0 when it\nsolves it, 1 when not, 2 on bad input.")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "\nThe ladder (open challenge N in the playground with ?challenge=N):")
	for i, c := range challenge.Ladder() {
		fmt.Fprintf(w, "  %d. %s\n", i+1, c.Title)
	}
}
