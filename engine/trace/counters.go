package trace

import "kvleak/engine"

// poolCounters walks both pools through the log, step by step, and draws
// their pages by state as counters: counts, never one event per page, so a
// 1,048,576-page pool costs what an 18-page one does.
type poolCounters struct {
	b     *builder
	views [2]*engine.Snapshot // prefill's and decode's pool at the current step
	last  [2][2]string        // the args each counter last showed, to draw changes only
}

func newPoolCounters(b *builder) *poolCounters { return &poolCounters{b: b} }

var counterPids = [2]pid{pidPrefill, pidDecode}

// decodeView is decode's pool in poolCounters.views, in engine.Servers' order.
const decodeView = 1

// move brings both views to step, a step past the last: ViewAtOf redoes
// only that step's changes.
func (c *poolCounters) move(step int) {
	for i, s := range engine.Servers {
		v, err := c.b.e.ViewAtOf(s, step)
		if err != nil {
			panic(err) // step is one of the log's
		}
		c.views[i] = v
	}
}

// sample draws the pools after step (0: before the first), at the end of its
// slot: "KV pool pages" splits the pool into its in-use, stale (free, still
// holding a request's KV) and free (holding nothing) pages; "leaked pages"
// is the pages of the newest response that another tenant wrote, as the
// grid marks them — on decode, since prefill reads no page it did not write.
func (c *poolCounters) sample(step int) {
	if step == 0 {
		c.move(0)
	}
	ts := int64(step) * StepMicros
	for i, v := range c.views {
		free, held, stale := v.Occupancy()
		leaked := 0
		if r, ok := v.LastResponse(); ok && v.Server() == engine.ServerDecode {
			leaked = r.LeakedPages.Len()
		}
		c.draw(i, 0, "KV pool pages", ts, newArgs().num("in_use", held).num("stale", stale).num("free", free).json())
		c.draw(i, 1, "leaked pages", ts, newArgs().num("leaked", leaked).json())
	}
}

func (c *poolCounters) draw(server, k int, name string, ts int64, args []byte) {
	if c.last[server][k] == string(args) {
		return
	}
	c.last[server][k] = string(args)
	c.b.add(event{name: name, cat: "kv_pool", ph: 'C', ts: ts, pid: counterPids[server], args: args})
}
