package model

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
