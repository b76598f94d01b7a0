package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"
)

// config is the validated command line.
type config struct {
	runs     int
	sends    int
	memSends int
	site     string
	floor    string
	out      string
	skipGo   bool
	phone    bool // the phone profile only
	quick    bool // the loopback visit and the timed interactions only
	chromium string
	profile  string
	timeout  time.Duration
	verbose  bool
}

// Exit codes: 0 measured (budgets may be OVER), 1 a measurement failed,
// 2 bad command line.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// parseFlags parses and validates args. Errors are one line; the usage text
// goes to usageOut only for -h/-help.
func parseFlags(args []string, usageOut io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&c.runs, "runs", 5, "cold runs, each with fresh browser profiles; the table shows medians")
	fs.IntVar(&c.sends, "sends", 20, "timed Send clicks per run and scale (median per run)")
	fs.IntVar(&c.memSends, "mem-sends", 1000, "requests sent at the glm-launch preset before measuring memory (0 skips)")
	fs.StringVar(&c.site, "site", "build/site", "site folder built by make site")
	fs.StringVar(&c.floor, "floor", "build/floor", "the reference pages measured beside the playground (cmd/bench/floor; make bench builds them); '' skips them")
	fs.StringVar(&c.out, "out", "build/bench.json", "where to write the JSON report")
	fs.BoolVar(&c.skipGo, "skip-go", false, "skip the engine's Go benchmarks")
	fs.BoolVar(&c.quick, "interactions", false, "measure only the loopback visit and the timed interactions (Send, Step, scrub at both scales), for iterating on one; the other figures read N/A")
	fs.BoolVar(&c.phone, "phone", false, "measure only the phone profile (every run; implies -skip-go)")
	fs.StringVar(&c.chromium, "chromium", "", "browser binary (default: /usr/bin/chromium, or chromium/google-chrome on PATH)")
	fs.StringVar(&c.profile, "profile", "", "write Chrome CPU profiles (first run) of the timed sends at glm-launch to this .cpuprofile file, of the demo-scale sends and the glm-launch scrubbing next to it (-demo, -scrub), and print their hottest functions")
	fs.DurationVar(&c.timeout, "timeout", 30*time.Minute, "give up after this long")
	fs.BoolVar(&c.verbose, "v", false, "log progress details")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(usageOut, "usage: bench [flags]   (make bench builds the site first)")
			fs.SetOutput(usageOut)
			fs.PrintDefaults()
			return config{}, err
		}
		return config{}, fmt.Errorf("%v (see bench -h)", err)
	}
	switch {
	case fs.NArg() > 0:
		return config{}, fmt.Errorf("unexpected argument %q (flags only; see bench -h)", fs.Arg(0))
	case c.runs < 1 || c.runs > 100:
		return config{}, fmt.Errorf("invalid -runs %d: must be 1..100 (5 or more for the budgets)", c.runs)
	case c.sends < 1 || c.sends > 1000:
		return config{}, fmt.Errorf("invalid -sends %d: must be 1..1000", c.sends)
	case c.memSends < 0 || c.memSends > 10_000:
		return config{}, fmt.Errorf("invalid -mem-sends %d: must be 0..10000", c.memSends)
	case c.site == "":
		return config{}, errors.New("invalid -site: empty")
	case c.out == "":
		return config{}, errors.New("invalid -out: empty")
	case c.timeout <= 0:
		return config{}, fmt.Errorf("invalid -timeout %v: must be positive", c.timeout)
	}
	return c, nil
}
