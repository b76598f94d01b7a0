package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// readInto fills a response's body with what decode attended over: the
// first committed positions of read, each attributed to the request that
// wrote it. Pages are attributed by their first position (the body, the
// leaked pages); positions one by one (the token counts), so that the page
// a placeholder was written into shows the stale KV beside it. It walks
// runs of pages with one writer, not pages.
func (e *Engine) readInto(resp *Response, read Pages, committed int, reader *record) {
	d := e.decode()
	size := e.cfg.PageTokens
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
	idx := 0 // the page's place in read
	last := read.Len() - 1
	tail := committed - last*size // positions attended in the last page
	for _, r := range read {
		ws := d.writer[r.First : r.First+r.Count]
		for i := 0; i < len(ws); {
			j := i + 1
			for j < len(ws) && ws[j] == ws[i] {
				j++
			}
			w, n := ws[i], j-i
			span := n * size
			if idx+n-1 == last {
				span += tail - size
			}
			t := count(w, span)
			pages[t] += n
			resp.Body = appendSegment(resp.Body, e.segment(w, reader), Run{r.First + i, n})
			if t != 0 && int(e.reqTenant[w-1]) != reader.tenant {
				resp.LeakedPages = append(resp.LeakedPages, Run{r.First + i, n})
			}
			idx += n
			i = j
		}
	}
	// A page a write ended inside holds other writers past its first: move
	// those positions from the page's first writer to theirs. In page
	// order, so that MixedPages does not follow the map's.
	partial := e.partialIn(read)
	for _, id := range slices.Sorted(maps.Keys(partial)) {
		ps := partial[id]
		w0 := ps[0].Writer // a write starts at position 0: a partial page's first run has a writer
		own := w0 != noRequest && int(e.reqTenant[w0-1]) == reader.tenant
		span := size
		if id == lastPage(read) {
			span = tail
		}
		for k, p := range ps {
			from := 0
			if k > 0 {
				from = int(ps[k-1].End)
			}
			n := min(int(p.End), span) - from
			if n <= 0 {
				break
			}
			if k == 0 {
				continue // counted with the page
			}
			tokens[count(ps[0].Writer, 0)] -= n
			if t := count(p.Writer, n); t != 0 && own && int(e.reqTenant[p.Writer-1]) != reader.tenant {
				resp.MixedPages = resp.MixedPages.add(id) // a page whose first position is another's is leaked
			}
		}
	}
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

// partialIn is the decode pages of read that hold more than one writer's
// KV, with their positions: it looks at the few such pages, not at read.
func (e *Engine) partialIn(read Pages) map[int]positions {
	d := e.decode()
	out := map[int]positions{}
	if len(d.partial) < read.Len() {
		for id, p := range d.partial {
			if read.Contains(int(id)) {
				out[int(id)] = p
			}
		}
		return out
	}
	read.Each(func(id int) bool {
		if p, ok := d.partial[int32(id)]; ok {
			out[id] = p
		}
		return true
	})
	return out
}

// lastPage is the last page id of p, or -1.
func lastPage(p Pages) int {
	if len(p) == 0 {
		return -1
	}
	r := p[len(p)-1]
	return r.First + r.Count - 1
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
		for _, w := range d.writer[r.First : r.First+r.Count] {
			if w != noRequest {
				counts[e.reqTenant[w-1]]++
			}
		}
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
