package engine

import "fmt"

// releaseReserved returns a request's decode reservation to decode's
// allocator, exactly once, scrubbing it first when the config says so.
func (e *Engine) releaseReserved(r *record, who string) {
	if r.released || len(r.reserved) == 0 {
		return
	}
	r.released = true
	e.free(e.decode(), r, r.reserved, who, HalfDecode)
}

// releasePrefill returns the prefill server's KV of a request to its
// allocator once prefill's half is done with it (after its transfer).
func (e *Engine) releasePrefill(r *record, who string) {
	if len(r.prefillKV) == 0 {
		return
	}
	pages := r.prefillKV
	r.prefillKV = nil
	e.free(e.prefill(), r, pages, who, HalfPrefill)
}

// free releases pages of one pool and logs it.
func (e *Engine) free(p *pool, r *record, pages Pages, who string, half Half) {
	n := pages.Len()
	muts := p.release(pages, r.id, e.cfg.ScrubOnFree)
	server := Servers[p.server]
	text := fmt.Sprintf("%s frees %s of its pool (%s). %s",
		capitalize(who), pagesWord(n), pages, freeNote[p.free.policy])
	if e.cfg.ScrubOnFree {
		bytes := int64(n) * int64(e.cfg.PageTokens) * int64(e.cfg.KVBytesPerToken)
		e.m.scrubWrites += n
		e.m.scrubBytes += bytes
		text = fmt.Sprintf("%s scrubs and frees %s of the %s pool (%s): %s %s, %s bytes zeroed (at the simulation's %s bytes of KV per token).",
			capitalize(who), pagesWord(n), server, pages, th(n), plural(n, "write", "writes"), Thousands(bytes), th(e.cfg.KVBytesPerToken))
	}
	e.emit(r, StageRelease, half, pages, text, muts...)
}

// freeNote says where free() puts the ids under each policy. The pages keep
// their KV under every one of them.
var freeNote = map[Allocator]string{
	Sorted: "free() only moves the ids: the pages keep their KV and wait in release_pages until an allocation finds free_pages short and merge_and_sort_free sorts them back in by page id.",
	LIFO:   "free() only moves the ids: the pages keep their KV and are prepended to free_pages, so they come back first.",
	FIFO:   "free() only moves the ids: the pages keep their KV and are appended to free_pages, so they come back last.",
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
