// Package replaypanel is the page's Replay panel (issue 40): the reader
// gives a request log — pasted, a file picked or dropped, or one of the
// site's samples — and the panel streams it through the vulnerable and the
// fixed door at the page's settings, a slice of work at a time so that the
// page keeps painting, and shows what each door answered, who saw whose
// KV, the first leaked response as a run to open, and a chart of the
// leaks over the log's time.
//
// The replay is package replay's, the one `kvleak replay` runs, and so
// are its words (replay.Report, in web/model's NewReplayView): the page and
// the terminal give the same numbers. The log is read in the browser (web/dom's BlobReader) and
// goes nowhere else.
//
// The panel imports the model and web/dom, never package web: the page
// hands it its settings (Config) and whether it is an embed.
package replaypanel
