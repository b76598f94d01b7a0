package engine

import "fmt"

// writersMatch is decode checking, before it attends, that it wrote — by
// prefill's transfer — every page it is about to read: one metadata read
// per page. It is the simulation's illustration of the article's third
// question, not a check SGLang has. On a mismatch the request is aborted
// with 500 and nothing is read.
func (f *flight) writersMatch(read Pages) bool {
	e := f.e
	bad, checked := -1, 0
	read.Each(func(id int) bool {
		checked++
		if e.pool.writer[id] != f.r.id {
			bad = id
			return false
		}
		return true
	})
	e.m.writerChecks += checked
	if bad < 0 {
		return true
	}
	who := "never written by this request (zeroed or never written)"
	if w := e.pool.writer[bad]; w != noRequest {
		who = fmt.Sprintf("last written by r%d (tenant %s), not by this request", w, e.tenants[e.reqTenant[w-1]])
	}
	f.abortAdmitted(StageDecodeRunning, 500, fmt.Sprintf("decode's writer check: page %d was %s", bad, who), fmt.Sprintf(
		"Decode checks the last writer of each page before it attends (%s metadata %s): page %d was %s. It aborts with 500 and reads nothing.",
		th(checked), plural(checked, "read", "reads"), bad, who), "decode (writer check failed)")
	return false
}
