package model

import "kvleak/engine"

// The listed log is bounded; older events stay in the engine.
const (
	MaxLogRows = 300 // at most this many rows are listed
	LogBlock   = 25  // events per block: a Send joins and the page parses at most this many rows again
)

// LogWindowStart is the index of the first listed event of n: the newest
// MaxLogRows at most, starting on a block boundary. go-app diffs children
// by position, so a window that slid by one event per event would redraw
// every block on every Send; this one moves once per LogBlock events.
func LogWindowStart(n int) int {
	if n <= MaxLogRows {
		return 0
	}
	return (n - MaxLogRows + LogBlock - 1) / LogBlock * LogBlock
}

// LogRow is one event as the log writes it: the engine's event in the
// fields its row shows.
type LogRow struct {
	Step, Request             int
	Tenant, Half, Stage, Poll string
	Text                      string
}

// Events is the engine's log as the event log lists it, a row an event.
type Events struct{ log engine.Log }

// EventsOf is the log's events as rows.
func EventsOf(l engine.Log) Events { return Events{l} }

// Len is how many events the log holds.
func (e Events) Len() int { return e.log.Len() }

// Row is the i-th event's row.
func (e Events) Row(i int) LogRow {
	ev := e.log.At(i)
	return LogRow{Step: ev.Step, Request: ev.Request, Tenant: ev.Tenant, Half: string(ev.Half),
		Stage: string(ev.Stage), Poll: string(ev.Poll), Text: ev.Text}
}
