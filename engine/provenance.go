package engine

import (
	"fmt"
	"strings"
)

// readInto fills a response's body with what decode attended over: the
// first committed positions of read, each attributed to the request that
// wrote it. Pages are attributed by their first position (the body, the
// leaked pages); positions one by one (the token counts), so that the page
// a placeholder was written into shows the stale KV beside it. It walks
// the page table's runs of one writer, not pages.
func (e *Engine) readInto(resp *Response, read Pages, committed int, reader *record) {
	d := e.decode()
	resp.ReadPages, resp.Committed = read, committed
	tokens := make([]int, len(e.tenants)+1) // positions per tenant index + 1; 0: nobody
	pages := make([]int, len(e.tenants)+1)
	count := func(w int32, n int) int {
		t := 0
		if w != noRequest {
			t = int(e.reqTenant[w-1]) + 1
		}
		tokens[t] += n
		return t
	}
	d.attend(read, committed, func(first, n int, w int32, span int) {
		t := count(w, span)
		pages[t] += n
		resp.Body = appendSegment(resp.Body, e.segment(w, reader), Run{first, n})
		if t != 0 && int(e.reqTenant[w-1]) != reader.tenant {
			resp.LeakedPages = append(resp.LeakedPages, Run{first, n})
		}
	}, func(id int, w0, w int32, n int) {
		// A page a write ended inside holds other writers past its first:
		// move those positions from the page's first writer to theirs.
		own := w0 != noRequest && int(e.reqTenant[w0-1]) == reader.tenant
		tokens[count(w0, 0)] -= n
		if t := count(w, n); t != 0 && own && int(e.reqTenant[w-1]) != reader.tenant {
			resp.MixedPages = resp.MixedPages.add(id) // a page whose first position is another's is leaked
		}
	})
	resp.EmptyTokens, resp.ZeroedPages = tokens[0], pages[0]
	for t := range e.tenants {
		if t == reader.tenant {
			resp.OwnTokens = tokens[t+1]
			continue
		}
		if tokens[t+1] > 0 {
			resp.Leaks = append(resp.Leaks, Leak{Tenant: e.tenants[t], Pages: pages[t+1], Tokens: tokens[t+1]})
			resp.ForeignTokens += tokens[t+1]
		}
	}
}

// segment is the body's part for pages whose first writer is w.
func (e *Engine) segment(w int32, reader *record) Segment {
	if w == noRequest {
		return Segment{Writer: 0, Text: "<zeroed>"}
	}
	wr := e.reqs[w-1]
	return Segment{Writer: int(w), Tenant: e.tenants[wr.tenant], Text: wr.text, Leaked: wr.tenant != reader.tenant}
}

// appendSegment adds pages to the body, extending the last segment when
// they have the same writer.
func appendSegment(body []Segment, seg Segment, pages Run) []Segment {
	if k := len(body) - 1; k >= 0 && body[k].Writer == seg.Writer {
		body[k].Pages = append(body[k].Pages, pages)
		return body
	}
	seg.Pages = Pages{pages}
	return append(body, seg)
}

// provenance says who wrote what decode attended over, in words.
func (e *Engine) provenance(resp Response) string {
	var parts []string
	if resp.OwnTokens > 0 {
		parts = append(parts, fmt.Sprintf("%s written by this request", positionsWord(resp.OwnTokens)))
	}
	for _, l := range resp.Leaks {
		parts = append(parts, fmt.Sprintf("%s of tenant %s's stale KV, never cleared", positionsWord(l.Tokens), l.Tenant))
	}
	if resp.EmptyTokens > 0 {
		parts = append(parts, fmt.Sprintf("%s zeroed or never written", positionsWord(resp.EmptyTokens)))
	}
	return strings.Join(parts, ", ")
}

// positionsWord is "1 position", "119 positions".
func positionsWord(n int) string { return th(n) + " " + plural(n, "position", "positions") }

// staleNote says whose content the freshly reserved pages still hold.
func (e *Engine) staleNote(pages Pages) string {
	d := e.decode()
	counts := make([]int, len(e.tenants)) // pages per tenant index
	for _, r := range pages {
		d.eachRun(r.First, r.First+r.Count, func(_, n int, _, w int32) {
			if w != noRequest {
				counts[e.reqTenant[w-1]] += n
			}
		})
	}
	var parts []string
	for t := range e.tenants {
		if n := counts[t]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s of tenant %s", th(n), e.tenants[t]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " They still hold old KV — " + strings.Join(parts, ", ") + " — because free() does not clear."
}
