package engine

import (
	"fmt"
	"strings"
)

// readInto fills a response's body with the pages decode read, attributing
// each to the request that last wrote it. A page another tenant wrote is a
// leaked page.
func (e *Engine) readInto(resp *Response, read Pages, reader *record) {
	resp.ReadPages = read
	var leakCount []int // per tenant index
	read.Each(func(id int) bool {
		w := e.pool.writer[id]
		seg := Segment{Writer: int(w)}
		switch {
		case w == noRequest:
			seg.Text = "<zeroed>"
			resp.ZeroedPages++
		default:
			wr := e.reqs[w-1]
			seg.Tenant, seg.Text = e.tenants[wr.tenant], wr.text
			if wr.tenant != reader.tenant {
				seg.Leaked = true
				resp.LeakedPages = resp.LeakedPages.add(id)
				if len(leakCount) <= wr.tenant {
					leakCount = append(leakCount, make([]int, wr.tenant+1-len(leakCount))...)
				}
				leakCount[wr.tenant]++
			}
		}
		resp.Body = appendSegment(resp.Body, seg, id)
		return true
	})
	for t, n := range leakCount {
		if n > 0 {
			resp.Leaks = append(resp.Leaks, Leak{Tenant: e.tenants[t], Pages: n})
		}
	}
}

// appendSegment extends the last segment when the page has the same writer.
func appendSegment(body []Segment, seg Segment, id int) []Segment {
	if k := len(body) - 1; k >= 0 && body[k].Writer == seg.Writer {
		body[k].Pages = body[k].Pages.add(id)
		return body
	}
	seg.Pages = Pages{{id, 1}}
	return append(body, seg)
}

// provenance says who wrote the pages of a response, in words.
func (e *Engine) provenance(resp Response) string {
	parts := make([]string, 0, len(resp.Body))
	for _, s := range resp.Body {
		n := s.Pages.Len()
		switch {
		case s.Writer == noRequest:
			parts = append(parts, fmt.Sprintf("%s zeroed", th(n)))
		case s.Writer == resp.Request:
			parts = append(parts, fmt.Sprintf("%s written by this request", th(n)))
		default:
			note := ""
			if s.Leaked {
				note = " — stale, never cleared"
			}
			parts = append(parts, fmt.Sprintf("%s last written by r%d (tenant %s)%s", th(n), s.Writer, s.Tenant, note))
		}
	}
	return strings.Join(parts, ", ")
}

// staleNote says whose content the freshly reserved pages still hold.
func (e *Engine) staleNote(pages Pages) string {
	counts := make([]int, len(e.tenants)) // pages per tenant index
	pages.Each(func(id int) bool {
		if w := e.pool.writer[id]; w != noRequest {
			counts[e.reqTenant[w-1]]++
		}
		return true
	})
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
