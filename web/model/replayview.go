package model

import (
	"fmt"

	"kvleak/engine"
	"kvleak/replay"
)

// ReplayView is a replay's result as the Replay panel shows it: the words
// and figures `kvleak replay` prints (replay.Report), and what only the
// page shows of it.
type ReplayView struct {
	replay.Report
	Announce string // the sentence the status region reads out
	Data     ReplayData
	Chart    ReplayChart
}

// ReplayData are the result's counts as plain numbers, for the result's
// data attributes.
type ReplayData struct {
	Requests, Leaked, ExposedTenants, FixedLeaked, FixedRejected, Skipped int
}

// NewReplayView is res as the panel shows it; embed keeps the first
// leak's link in the embed.
func NewReplayView(res replay.Result, embed bool) ReplayView {
	var view []string
	if embed {
		view = View{Embed: true}.keys()
	}
	th := func(n int) string { return engine.Thousands(int64(n)) }
	v, f := res.Vulnerable, res.Fixed
	return ReplayView{
		Report: replay.NewReport(res, view...),
		Announce: fmt.Sprintf("Replay done: %s of %s responses leaked another tenant's KV through the vulnerable door, %s through the fixed door; %s tenants exposed; %s %s skipped.",
			th(v.Leaked), th(v.Requests), th(f.Leaked), th(v.ExposedTenants), th(res.Skip.Count), plural(res.Skip.Count, "line", "lines")),
		Data: ReplayData{Requests: v.Requests, Leaked: v.Leaked, ExposedTenants: v.ExposedTenants,
			FixedLeaked: f.Leaked, FixedRejected: f.Rejected, Skipped: res.Skip.Count},
		Chart: newReplayChart(res),
	}
}
