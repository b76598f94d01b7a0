package engine

import "fmt"

// releaseSlot returns a request's reserved pages to the allocator, exactly
// once, scrubbing them first when the config says so.
func (e *Engine) releaseSlot(r *record, who string) {
	if r.released || len(r.slot) == 0 {
		return
	}
	r.released = true
	n := r.slot.Len()
	muts := e.pool.release(r.slot, r.id, e.cfg.ScrubOnFree)
	text := fmt.Sprintf("%s frees %s %s (%s). %s",
		capitalize(who), th(n), plural(n, "page", "pages"), r.slot, freeNote[e.pool.free.policy])
	if e.cfg.ScrubOnFree {
		bytes := int64(n) * int64(e.cfg.PageTokens) * int64(e.cfg.KVBytesPerToken)
		e.m.scrubWrites += n
		e.m.scrubBytes += bytes
		text = fmt.Sprintf("%s scrubs and frees %s %s (%s): %s %s, %s bytes zeroed.",
			capitalize(who), th(n), plural(n, "page", "pages"), r.slot, th(n), plural(n, "write", "writes"), Thousands(bytes))
	}
	e.emit(r, StageRelease, HalfDecode, r.slot, text, muts...)
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
