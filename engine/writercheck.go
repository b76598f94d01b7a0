package engine

import "fmt"

// writersMatch is decode checking, before it attends, that it wrote — by
// prefill's transfer — every page it is about to read: one metadata read
// per page, against the page's last writer tag. It is the simulation's
// illustration of the article's third question; SGLang's nearest check is
// the opt-in KV-transfer checksum (PR #39500,
// --disaggregation-enable-kv-checksum), which proves the bytes prefill
// sent arrived intact but not that decode attends over only those. A tag
// per page misses stale positions past a write that ended inside a page. On a mismatch the request is aborted
// with 500 and nothing is read.
func (f *flight) writersMatch(read Pages) bool {
	e := f.e
	d := e.decode()
	bad, badWriter, checked := -1, int32(noRequest), 0
	for _, r := range read {
		d.writerRuns(r, func(first, n int, w int32) {
			switch {
			case bad >= 0:
			case w == f.r.id:
				checked += n
			default: // the check stops at the first page another wrote
				bad, badWriter = first, w
				checked++
			}
		})
		if bad >= 0 {
			break
		}
	}
	e.m.writerChecks += checked
	if bad < 0 {
		return true
	}
	who := "never written by this request (zeroed or never written)"
	if w := badWriter; w != noRequest {
		who = fmt.Sprintf("last written by r%d (tenant %s), not by this request", w, e.tenants[e.reqTenant[w-1]])
	}
	f.abortAdmitted(StageDecodeRunning, 500, fmt.Sprintf("decode's writer check: page %d was %s", PageID(bad), who), fmt.Sprintf(
		"Decode checks the last writer of each page before it attends (%s metadata %s): page %d was %s. It aborts with 500 and reads nothing.",
		th(checked), plural(checked, "read", "reads"), PageID(bad), who), "decode (writer check failed)")
	return false
}
