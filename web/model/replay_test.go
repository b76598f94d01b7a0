package model

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/permalink"
	"kvleak/replay"
)

// The demo's two requests as a log: B's prompt lies in the window, so its
// response carries A's KV through the vulnerable door and is refused by
// the fixed one.
const demoReplayLog = "t,tenant,prompt_tokens,output_tokens\n0,A,120,4\n1,B,125,4\n"

// runReplayJob replays text as the page does, a chunk at a time.
func runReplayJob(t *testing.T, text []byte, opts replay.Options, chunk int) (replay.Result, ReplayProgress) {
	t.Helper()
	job, err := StartReplay(bytes.NewReader(text), int64(len(text)), opts)
	require.NoError(t, err)
	for {
		done, err := job.Step(chunk)
		require.NoError(t, err)
		if done {
			return job.Result(), job.Progress()
		}
	}
}

// On SGLang's door (#38935) the page's fixed side is that door, as
// kvleak replay -fix upstream: B gets decode's 500 and nothing leaks.
func TestReplayFollowsThePagesDoor(t *testing.T) {
	cfg := engine.DemoConfig()
	cfg.Mode = engine.Upstream
	opts, errs := DefaultReplayForm().Options(cfg)
	require.Nil(t, errs)
	assert.Equal(t, engine.Upstream, opts.Fix)
	res, _ := runReplayJob(t, []byte(demoReplayLog), opts, 1)
	v := NewReplayView(res, false)
	assert.Equal(t, replay.Row{Name: "HTTP 500", Vulnerable: "0", Fixed: "1"}, v.Rows[3])
	assert.Equal(t, replay.Row{Name: "leaked responses", Vulnerable: "1", Fixed: "0", Leak: true}, v.Rows[5])
	assert.Contains(t, v.Settings, "the fixed door: "+modeInfo(engine.Upstream).Name+".")
}

// Replaying the demo's two requests gives the verdict sending them does,
// and its link opens a run that leaks.
func TestReplayViewOfTheDemo(t *testing.T) {
	opts, errs := DefaultReplayForm().Options(engine.DemoConfig())
	require.Nil(t, errs)
	res, prog := runReplayJob(t, []byte(demoReplayLog), opts, 1)
	assert.Equal(t, ReplayProgress{Read: int64(len(demoReplayLog)), Size: int64(len(demoReplayLog)), Requests: 2}, prog)
	v := NewReplayView(res, false)
	assert.Equal(t, ReplayData{Requests: 2, Leaked: 1, ExposedTenants: 1, FixedLeaked: 0, FixedRejected: 1}, v.Data)
	assert.Equal(t, replay.Row{Name: "leaked responses", Vulnerable: "1", Fixed: "0", Leak: true}, v.Rows[5])
	assert.Equal(t, replay.Row{Name: "HTTP 400", Vulnerable: "0", Fixed: "1"}, v.Rows[2])
	assert.Equal(t, replay.Row{Name: "HTTP 500", Vulnerable: "0", Fixed: "0"}, v.Rows[3])
	assert.Contains(t, v.Settings, "the fixed door: Cloudflare's patch (the article).")
	require.Len(t, v.Pairs, 1)
	assert.Equal(t, replay.Pair{Victim: "A", Recipient: "B", Responses: 1, Pages: 7, Tokens: 119}, v.Pairs[0])
	assert.Equal(t, "1 of 1", v.PairsNote)
	assert.Equal(t, "Line 3 at 1s, tenant B, a 125-token prompt, carrying 119 tokens of tenant A's KV.", v.FirstLeak)
	assert.Contains(t, v.Announce, "1 of 2 responses leaked")

	st, err := DecodeLink(strings.TrimPrefix(v.FirstLeakLink, "?"))
	require.NoError(t, err, "the first leak's link opens on the page")
	require.Len(t, st.Ops, 2)
	assert.False(t, st.View.Embed)
	s := NewSession()
	require.NoError(t, s.ApplyLink(st))
	assert.True(t, strings.HasPrefix(s.Response().Verdict, "LEAK"), s.Response().Verdict)

	embedded := NewReplayView(res, true).FirstLeakLink
	st, err = DecodeLink(strings.TrimPrefix(embedded, "?"))
	require.NoError(t, err)
	assert.True(t, st.View.Embed, "an embed's link stays in the embed: %s", embedded)
}

// hourConfig is issue 40's setting for Mooncake's hour: a 131,072-token
// context over a 100,000-token prefill pool.
func hourConfig() engine.Config {
	cfg := engine.DemoConfig()
	cfg.ContextTokens, cfg.PoolTokens, cfg.DecodePoolTokens, cfg.PageTokens = 131_072, 100_000, 131_072, 64
	return cfg
}

// The page gives the numbers `kvleak replay` gives for the same log and
// settings: the CLI runs replay.Run with the options its flags make
// (cmd/kvleak/replay.go), the page steps a job with the options its form
// makes; the views, the link the CLI prints included, are equal.
func TestReplayPageAgreesWithTheCommand(t *testing.T) {
	text, err := os.ReadFile("../../static/traces/mooncake-conversation.csv")
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		form func(*ReplayForm)
		cli  replay.Options
	}{
		{"defaults", func(*ReplayForm) {}, replay.Options{Timing: replay.DefaultTiming}},
		{"shared tenants and timing", func(f *ReplayForm) {
			f.Shared, f.Tenants, f.Seed, f.PrefillTPS, f.TPOTms = true, "50", "7", "5,000", "12.5"
		}, replay.Options{Tenancy: replay.Tenancy{Tenants: 50, Seed: 7}, Timing: replay.Timing{PrefillTokensPerSecond: 5000, SecondsPerOutputToken: 12.5 / 1000}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			form := DefaultReplayForm()
			c.form(&form)
			opts, errs := form.Options(hourConfig())
			require.Nil(t, errs)
			page, prog := runReplayJob(t, text, opts, 1500)
			assert.Equal(t, int64(len(text)), prog.Read)
			cli := c.cli
			cli.Config = hourConfig()
			want, err := replay.Run(bytes.NewReader(text), cli)
			require.NoError(t, err)
			assert.Equal(t, NewReplayView(want, false), NewReplayView(page, false))
			assert.Equal(t, "?"+permalink.EncodeLink(permalink.LinkState{Config: want.Config, Ops: want.Vulnerable.FirstLeak.Ops(want.Config)}), NewReplayView(page, false).FirstLeakLink)
		})
	}
}

// The hour's counts are the replay's (the engine's), read into the view;
// the story they tell is pinned against the log read on its own: every
// prompt in the window that decode decodes leaks through the vulnerable
// door (an output of 1 token is finished in decode's prebuilt batch,
// attending over nothing), and the fixed door rejects every prompt in
// the window instead.
func TestReplayViewOfTheHour(t *testing.T) {
	text, err := os.ReadFile("../../static/traces/mooncake-conversation.csv")
	require.NoError(t, err)
	window, decoded := windowRequests(t, text, hourConfig())
	require.Less(t, decoded, window, "the log has a prompt in the window that decode does not decode")
	opts, _ := DefaultReplayForm().Options(hourConfig())
	res, _ := runReplayJob(t, text, opts, 4000)
	v := NewReplayView(res, false)
	leaked := res.Vulnerable.Leaked
	assert.Equal(t, decoded, leaked)
	assert.Equal(t, window, res.Vulnerable.Window)
	assert.Zero(t, res.Vulnerable.NeverFit)
	assert.Equal(t, ReplayData{Requests: 12_031, Leaked: leaked, ExposedTenants: res.Vulnerable.ExposedTenants, FixedLeaked: 0, FixedRejected: window}, v.Data)
	assert.Len(t, v.Pairs, replay.MaxReportPairs)
	assert.Equal(t, fmt.Sprintf("%d of %s", replay.MaxReportPairs, engine.Thousands(int64(res.Vulnerable.PairsTotal))), v.PairsNote)
	assert.Greater(t, res.Vulnerable.PairsTotal, replay.MaxReportPairs)

	c := v.Chart
	total := 0
	for _, b := range c.Bins {
		assert.Positive(t, b.Vulnerable+b.Fixed, "the text alternative lists only bins with a leak")
		total += b.Vulnerable
	}
	assert.Equal(t, leaked, total)
	for _, b := range c.Bars {
		assert.False(t, b.Fixed, "nothing leaks through the fixed door")
		assert.GreaterOrEqual(t, b.X, float64(ChartLeft))
		assert.LessOrEqual(t, b.X+b.W, float64(ChartRight))
		assert.GreaterOrEqual(t, b.Y, float64(ChartTop)-1e-9)
		assert.InDelta(t, float64(ChartBottom), b.Y+b.H, 1e-9)
	}
	assert.Equal(t, "0s", c.XTicks[0].Label)
	assert.Less(t, c.EndX, float64(ChartRight), "the log ends before the last answer")
	assert.Regexp(t, `^Leaked responses by the time they were answered, from the log's start, in \d+ bins of 8m32s \(the log spans 58m57s\): `+
		engine.Thousands(int64(leaked))+` through the vulnerable door, 0 through the fixed door\.$`, c.Label)
}

// windowRequests reads the log with encoding/csv, not the replay's reader:
// how many prompts lie in cfg's window, and how many of those decode
// decodes (an output of 2 tokens or more).
func windowRequests(t *testing.T, text []byte, cfg engine.Config) (window, decoded int) {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(text)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"t", "prompt_tokens", "output_tokens"}, rows[0])
	for _, row := range rows[1:] {
		prompt, err := strconv.Atoi(row[1])
		require.NoError(t, err)
		out, err := strconv.Atoi(row[2])
		require.NoError(t, err)
		if cfg.Window().Contains(prompt) {
			window++
			if out >= 2 {
				decoded++
			}
		}
	}
	return window, decoded
}

func TestSpanText(t *testing.T) {
	for d, want := range map[string]string{"0s": "0s", "400ms": "0s", "59m": "59m", "29m28s": "29m28s", "1h2m": "1h2m", "2h0m3s": "2h3s", "3h": "3h"} {
		dur, err := parseDur(d)
		require.NoError(t, err)
		assert.Equal(t, want, spanText(dur), d)
	}
}

// The form takes numbers as people write them and refuses the rest with
// a message under the field, in replay's own words for its bounds.
func TestReplayFormOptions(t *testing.T) {
	opts, errs := DefaultReplayForm().Options(engine.DemoConfig())
	require.Nil(t, errs)
	assert.Equal(t, replay.DefaultTiming, opts.Timing)
	assert.Equal(t, replay.Tenancy{}, opts.Tenancy, "every request its own tenant unless the reader picks tenants")
	assert.Equal(t, engine.DemoConfig(), opts.Config)

	for _, c := range []struct {
		form     func(*ReplayForm)
		id, want string
	}{
		{func(f *ReplayForm) { f.PrefillTPS = "fast" }, ReplayTPSID, "Prefill throughput: not a number"},
		{func(f *ReplayForm) { f.PrefillTPS = "0" }, ReplayTPSID, "prefill throughput 0 tokens/s: must be between 1 and 1,000,000,000"},
		{func(f *ReplayForm) { f.PrefillTPS = "" }, ReplayTPSID, "Prefill throughput: enter a number"},
		{func(f *ReplayForm) { f.TPOTms = "-1" }, ReplayTPOTID, "Time per output token: not a number"},
		{func(f *ReplayForm) { f.TPOTms = "61,000" }, ReplayTPOTID, "time per output token 61 s: must be between 0 and 60"},
		{func(f *ReplayForm) { f.TPOTms = "1e400" }, ReplayTPOTID, "Time per output token: not a number"},
		{func(f *ReplayForm) { f.TPOTms = "1.5.2" }, ReplayTPOTID, "Time per output token: not a number"},
		{func(f *ReplayForm) { f.TPOTms = "0.0000001" }, ReplayTPOTID, "Time per output token: that number is too long"},
		{func(f *ReplayForm) { f.PrefillTPS = "9999999999999" }, ReplayTPSID, "Prefill throughput: that number is too long"},
		{func(f *ReplayForm) { f.Shared, f.Tenants = true, "0" }, ReplayTenantsID, "Tenants: must be at least 1"},
		{func(f *ReplayForm) { f.Shared, f.Tenants = true, "2M" }, ReplayTenantsID, "Tenants: tenants 2000000: must be between 1 and 1,000,000"},
		{func(f *ReplayForm) { f.Shared, f.Seed = true, "-3" }, ReplaySeedID, "Seed: enter a whole number from 0"},
	} {
		form := DefaultReplayForm()
		c.form(&form)
		_, errs := form.Options(engine.DemoConfig())
		require.Len(t, errs, 1, "%+v", form)
		assert.Contains(t, errs[c.id], c.want)
	}
	form := DefaultReplayForm()
	form.Seed, form.Tenants = "junk", "junk"
	_, errs = form.Options(engine.DemoConfig())
	assert.Nil(t, errs, "tenants and seed are read only when shared")
	form.Shared, form.Tenants, form.Seed, form.TPOTms = true, "1,000", "18,446,744,073,709,551,615", "0"
	opts, errs = form.Options(engine.DemoConfig())
	require.Nil(t, errs)
	assert.Equal(t, replay.Tenancy{Tenants: 1000, Seed: 1<<64 - 1}, opts.Tenancy)
	assert.Zero(t, opts.Timing.SecondsPerOutputToken)
	form.PrefillTPS, form.TPOTms = "1,000,000,000", "12.5"
	opts, errs = form.Options(engine.DemoConfig())
	require.Nil(t, errs)
	assert.Equal(t, replay.Timing{PrefillTokensPerSecond: 1e9, SecondsPerOutputToken: 0.0125}, opts.Timing)
}

func parseDur(s string) (d time.Duration, err error) { return time.ParseDuration(s) }
