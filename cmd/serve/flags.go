package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"kvleak/internal/server"
)

// config is the validated command line.
type config struct {
	addr           string
	dir            string
	prefix         string // normalized: "" or "/name" without trailing slash
	frameAncestors string // normalized CSP source list
	accessLog      bool
}

// parseFlags parses and validates args. Errors are one line; the usage
// text is printed to usageOut only for -h/-help.
func parseFlags(args []string, usageOut io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // we print our own one-line errors
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "listen address host:port (loopback by default)")
	fs.StringVar(&c.dir, "dir", "build/site", "site folder built by make site")
	fs.StringVar(&c.prefix, "prefix", "", "serve under a sub-path, e.g. /kvleak")
	fs.StringVar(&c.frameAncestors, "frame-ancestors", "*", "CSP frame-ancestors sources, e.g. \"'self' https://docs.example.com\"")
	fs.BoolVar(&c.accessLog, "access-log", false, "log one line per request to stderr")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(usageOut, "usage: serve [flags]")
			fs.SetOutput(usageOut)
			fs.PrintDefaults()
		}
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q (the folder goes in -dir)", fs.Arg(0))
	}
	if err := server.ValidateAddr(c.addr); err != nil {
		return config{}, err
	}
	if c.dir == "" {
		return config{}, errors.New("invalid -dir: empty")
	}
	var err error
	if c.prefix, err = server.NormalizePrefix(c.prefix); err != nil {
		return config{}, err
	}
	if c.frameAncestors, err = server.NormalizeFrameAncestors(c.frameAncestors); err != nil {
		return config{}, err
	}
	return c, nil
}
