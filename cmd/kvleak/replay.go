package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"kvleak/engine"
	"kvleak/replay"
)

const replayUsage = "usage: kvleak replay [flags] LOG"

var replayHelp = help{
	usage: replayUsage,
	about: `Replay streams a request log through the vulnerable door and a fixed one
and prints how many responses carried another tenant's KV, whose and to
whom. LOG is a file, or - for standard input, in one of the formats of
package replay: ours (JSONL or CSV: t, tenant, prompt_tokens,
output_tokens, and optionally session), Mooncake's traces or Azure's LLM
inference trace. Bad lines are skipped and named.

The settings it replays at come from one of: the two servers' files that
kvleak check reads (-prefill and -decode), a preset (-preset), a
permalink (-link), or the numbers one by one (-context, -prefill-pool,
-decode-pool, -page, -reserve; glm-launch's where not given). Two of them
for one setting are an error that names both; with none, glm-launch's.

-pairs and -tenants write whom to tell, as CSV with a header row, as the
replay streams: every victim → recipient pair of a leaked response, and
every exposed tenant. Tenant names are quoted, and one starting with =,
+, -, @, a tab or a carriage return is written with a ' in front, so that
a spreadsheet shows it and does not run it.`,
	example: "kvleak replay -prefill prefill.json -decode decode.json -instances 8 -pairs pairs.csv -tenants tenants.csv requests.csv",
	exit:    "0 no response leaked, 1 a response leaked, 2 unusable input.",
}

// replayLog streams a request log through the vulnerable and the fixed
// door at the settings the flags give and prints what each answered.
func replayLog(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("replay")
	dep := addDeployment(fs)
	share := fs.Int("share", 0, "give the requests the log names no tenant for one of `N` tenants by a seeded hash (0: each request its own tenant)")
	seed := fs.Uint64("seed", 0, "the seed `S` of -share's hash")
	tps := fs.Float64("prefill-tps", replay.DefaultTiming.PrefillTokensPerSecond, "prefill's throughput, `tokens` a second (the replay's own timing model)")
	tpot := fs.Float64("tpot-ms", replay.DefaultTiming.SecondsPerOutputToken*1000, "decode's time per output token, in `ms`")
	instances := fs.Int("instances", 1, "replay through `N` prefill/decode pairs behind a router, each with its own pools: round-robin, and a session the log names kept on one pair")
	fix := fs.String("fix", string(engine.Fixed), "the fixed side's `door`: fixed (Cloudflare's patch) or upstream (SGLang's #38935)")
	pairsFile := fs.String("pairs", "", "write every victim → recipient pair of a leaked response to `FILE` as CSV")
	tenantsFile := fs.String("tenants", "", "write every exposed tenant to `FILE` as CSV")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if ok, code := replayHelp.parse(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return replayHelp.fail(stderr, fs, "replay takes one log: a file, or - for standard input")
	}
	cfg, notes, err := dep.settings(fs)
	if err != nil {
		return fail(stderr, err.Error())
	}
	opts := replay.Options{Config: cfg, Tenancy: replay.Tenancy{Tenants: *share, Seed: *seed}, Instances: *instances, Notes: notes,
		Timing: replay.Timing{PrefillTokensPerSecond: *tps, SecondsPerOutputToken: *tpot / 1000}, Fix: engine.Mode(*fix)}
	if err := opts.Tenancy.Check(); err != nil {
		return fail(stderr, "-share: "+err.Error())
	}
	if *instances < 1 || *instances > replay.MaxInstances {
		return fail(stderr, fmt.Sprintf("-instances %d: must be between 1 and %s", *instances, engine.Thousands(replay.MaxInstances)))
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
	out, err := createFiles(*pairsFile, *tenantsFile)
	if err != nil {
		return fail(stderr, err.Error())
	}
	opts.Files = out.files
	res, err := replay.Run(in, opts)
	if err = out.close(err); err != nil {
		return fail(stderr, err.Error())
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(replayJSON{Result: res, FirstLeakLink: res.LeakLink()}); err != nil {
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

// printReplay writes the result for a person, in the panel's words
// (replay.Report): the page and the terminal say the same.
func printReplay(w io.Writer, res replay.Result) {
	v := replay.NewReport(res)
	fmt.Fprintf(w, "%s\n%s\n\n", v.Summary, v.Settings)
	fmt.Fprintf(w, "%-24s %14s %14s\n", "", "vulnerable", res.Fix)
	for _, r := range v.Rows {
		fmt.Fprintf(w, "%-24s %14s %14s\n", r.Name, r.Vulnerable, r.Fixed)
	}
	if len(v.Pairs) > 0 {
		fmt.Fprintf(w, "\nWhose KV reached whom (victim → recipient: responses, pages, tokens), %s:\n", v.PairsNote)
		for _, p := range v.Pairs {
			fmt.Fprintf(w, "  %s → %s: %s, %s, %s", p.Victim, p.Recipient,
				engine.Thousands(int64(p.Responses)), engine.Thousands(p.Pages), engine.Thousands(p.Tokens))
			if where := p.Where(); where != "" {
				fmt.Fprintf(w, " (%s)", where)
			}
			fmt.Fprintln(w)
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
