package replay

import (
	"io"
	"strings"
	"time"
)

// Files are where a replay writes whom to tell, as CSV with a header row,
// counting the vulnerable door's leaks (the fixed doors leak nothing).
// Either may be nil.
//
// Pairs gets a row for every victim of every leaked response, written as
// the replay answers it: the victim, the recipient, the recipient's line in
// the log and its time there (seconds from the log's origin, as Request.At;
// not when the replay served it), the pages and tokens of the victim's KV
// it carried, and the instance it was served on (PairsHeader). Tenants
// gets, once the log is done, a row for every exposed tenant in the order
// they were first exposed: the responses its KV reached, their pages and
// tokens, the log's times of the first and the last, and its recipients
// (TenantsHeader). Tenant names are quoted, and one that a spreadsheet
// would read as a formula is written as text (safeText).
type Files struct {
	Pairs, Tenants io.Writer
}

// The files' header rows.
const (
	PairsHeader   = "victim,recipient,recipient_line,recipient_log_time_s,pages,tokens,instance"
	TenantsHeader = "tenant,responses,pages,tokens,first_log_time_s,last_log_time_s,recipients,recipient_names"
)

// MaxRecipientsNamed bounds the names in a tenant's recipient_names cell,
// one a line, in the order they were reached; recipients counts them all,
// and the pairs file names every one.
const MaxRecipientsNamed = 100

// exposure is what one tenant's KV reached.
type exposure struct {
	responses     int
	pages, tokens int64
	first, last   time.Duration // the recipients' times in the log
	recipients    int
	named         []int32 // the first MaxRecipientsNamed recipients
}

// files writes Files as the vulnerable door counts.
type files struct {
	pairs, tenants *csvOut
}

func newFiles(f Files) *files {
	out := &files{}
	if f.Pairs != nil {
		out.pairs = newCSVOut(f.Pairs)
		out.pairs.plain(PairsHeader)
		out.pairs.end()
	}
	if f.Tenants != nil {
		out.tenants = newCSVOut(f.Tenants)
	}
	return out
}

// pair writes one victim of a leaked response.
func (fs *files) pair(victim, recipient string, r Request, pages, tokens int, instance int) {
	c := fs.pairs
	if c == nil {
		return
	}
	c.text(victim)
	c.text(recipient)
	c.num(int64(r.Line))
	c.seconds(r.At)
	c.num(int64(pages))
	c.num(int64(tokens))
	c.num(int64(instance) + 1)
	c.end()
}

// exposed writes the tenants file, the tenants in the order given.
func (fs *files) exposed(order []int32, of map[int32]*exposure, names func(int32) string) {
	c := fs.tenants
	if c == nil {
		return
	}
	c.plain(TenantsHeader)
	c.end()
	var list []string
	for _, id := range order {
		e := of[id]
		c.text(names(id))
		c.num(int64(e.responses))
		c.num(e.pages)
		c.num(e.tokens)
		c.seconds(e.first)
		c.seconds(e.last)
		c.num(int64(e.recipients))
		list = list[:0]
		for _, r := range e.named {
			list = append(list, safeText(names(r)))
		}
		c.quoted(strings.Join(list, "\n")) // names hold no line end (checkTenant)
		c.end()
	}
}

// err is the first write error of either file.
func (fs *files) err() error {
	for _, c := range []*csvOut{fs.pairs, fs.tenants} {
		if c != nil && c.err != nil {
			return c.err
		}
	}
	return nil
}
