package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"kvleak/engine"
	"kvleak/replay"
	"kvleak/web/model"
)

const replayUsage = "usage: kvleak replay [-preset NAME | -link 'URL or query'] [-fix fixed|upstream] [-tenants N -seed S] [-prefill-tps N] [-tpot-ms N] [-json] FILE (- for stdin)"

// replayLog streams a request log through the vulnerable and the fixed
// door at a preset's or a link's settings (glm-launch's when neither is
// given) and prints what each answered: exit 0 when nothing leaked, 1 when
// something did, 2 on unusable input.
func replayLog(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	preset := fs.String("preset", "", "a preset's slug (default glm-launch)")
	link := fs.String("link", "", "a permalink, or its query: its settings")
	tenants := fs.Int("tenants", 0, "tenants to share a log's unnamed requests among (0: each its own)")
	seed := fs.Uint64("seed", 0, "the seed of -tenants' hash")
	tps := fs.Float64("prefill-tps", replay.DefaultTiming.PrefillTokensPerSecond, "prefill's throughput, tokens a second")
	tpot := fs.Float64("tpot-ms", replay.DefaultTiming.SecondsPerOutputToken*1000, "decode's time per output token, ms")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	fix := fs.String("fix", string(engine.Fixed), "the fixed side's door: fixed (Cloudflare's patch) or upstream (SGLang's #38935)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 || (*preset != "" && *link != "") {
		return fail(stderr, replayUsage)
	}
	cfg, err := replaySettings(*preset, *link)
	if err != nil {
		return fail(stderr, err.Error())
	}
	opts := replay.Options{Config: cfg, Tenancy: replay.Tenancy{Tenants: *tenants, Seed: *seed},
		Timing: replay.Timing{PrefillTokensPerSecond: *tps, SecondsPerOutputToken: *tpot / 1000}, Fix: engine.Mode(*fix)}
	if err := opts.Tenancy.Check(); err != nil {
		return fail(stderr, err.Error())
	}
	in := stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fail(stderr, err.Error())
		}
		defer f.Close()
		in = f
	}
	res, err := replay.Run(in, opts)
	if err != nil {
		return fail(stderr, err.Error())
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(replayJSON{Result: res, FirstLeakLink: model.ReplayLeakLink(res, false)}); err != nil {
			return fail(stderr, err.Error())
		}
	} else {
		printReplay(stdout, res)
	}
	if res.Vulnerable.Leaked > 0 || res.Fixed.Leaked > 0 {
		return exitExposed
	}
	return exitOK
}

// replayJSON is -json's output: the result and the first leak's link.
type replayJSON struct {
	replay.Result
	FirstLeakLink string `json:"firstLeakLink,omitempty"`
}

// replaySettings is the deployment to replay at.
func replaySettings(preset, link string) (engine.Config, error) {
	if link != "" {
		st, err := model.DecodeLink(linkQuery(link))
		switch {
		case errors.Is(err, model.ErrNoState):
			return engine.Config{}, errors.New("the link carries no settings (it needs v= and preset= or setting keys)")
		case err != nil:
			return engine.Config{}, fmt.Errorf("the link: %v", err)
		}
		return st.Config, nil
	}
	if preset == "" {
		preset = "glm-launch"
	}
	p, ok := engine.PresetBySlug(preset)
	if !ok {
		slugs, _ := engine.PresetNames()
		return engine.Config{}, fmt.Errorf("no preset %q: one of %s", preset, strings.Join(slugs, ", "))
	}
	return p.Config, nil
}

// printReplay writes the result for a person, in the panel's words
// (model.NewReplayView): the page and the terminal say the same.
func printReplay(w io.Writer, res replay.Result) {
	v := model.NewReplayView(res, false)
	fmt.Fprintf(w, "%s\n%s\n\n", v.Summary, v.Settings)
	fmt.Fprintf(w, "%-24s %14s %14s\n", "", "vulnerable", res.Fix)
	for _, r := range v.Rows {
		fmt.Fprintf(w, "%-24s %14s %14s\n", r.Name, r.Vulnerable, r.Fixed)
	}
	if len(v.Pairs) > 0 {
		fmt.Fprintf(w, "\nWhose KV reached whom (victim → recipient: responses, pages, tokens), %s:\n", v.PairsNote)
		for _, p := range v.Pairs {
			fmt.Fprintf(w, "  %s → %s: %s, %s, %s\n", p.Victim, p.Recipient,
				engine.Thousands(int64(p.Responses)), engine.Thousands(p.Pages), engine.Thousands(p.Tokens))
		}
	}
	if v.FirstLeak != "" {
		fmt.Fprintf(w, "\nFirst leaked response: %s\nA run that shows it in the playground: %s\n", v.FirstLeak, v.FirstLeakLink)
	}
	if len(v.Skipped) > 0 {
		fmt.Fprintln(w, "\nSkipped lines:")
		for _, s := range v.Skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	fmt.Fprintln(w, "\nNotes:")
	for _, n := range v.Notes {
		fmt.Fprintf(w, "- %s\n", n)
	}
}
