package replay

import (
	"container/heap"
	"time"

	"kvleak/engine"
)

// WaitingTimeout is how long decode's KV receiver waits for KV that never
// comes before it fails the request: SGLang's
// SGLANG_DISAGGREGATION_WAITING_TIMEOUT, 300 s by default
// (srt/environ.py), under the per-server door (engine.Upstream).
const WaitingTimeout = 300 * time.Second

// door is one door's replay: an engine.Stream and the time each request
// holds decode's pages. A request preallocates on arrival, or waits in
// DecodePreallocQueue (first come, first served) until releases make room;
// prefill then runs it (one at a time, at Timing.PrefillTokensPerSecond),
// decode attends over its reservation as soon as the transfer lands, and
// it holds its pages until its last output token
// (Timing.SecondsPerOutputToken each). A response that ends in a 400
// after its prealloc frees its pages when it is answered.
//
// Its work is done in units (a release, a start) within a budget, and
// resumes where the budget ran out, in the same order: one release can
// start hundreds of waiting requests, and a page must paint between two
// slices of the work.
type door struct {
	inst     int // which instance it is, from 0
	s        *engine.Stream
	timing   Timing
	queue    []*flight // waiting for pages, oldest first
	running  flights   // holding pages, by when they finish
	prefill  time.Duration
	sum      *DoorSummary
	draining bool          // waiting requests may start at drainAt
	drainAt  time.Duration // the time of the release or arrival that made room
}

// flight is a request on its way through a door.
type flight struct {
	engine.StreamRequest
	req    Request
	arrive time.Duration
	finish time.Duration
}

func newDoor(cfg engine.Config, timing Timing, sum *DoorSummary, inst int) (*door, error) {
	s, err := engine.NewStream(cfg)
	if err != nil {
		return nil, err
	}
	return &door{inst: inst, s: s, timing: timing, sum: sum}, nil
}

// arrive takes the next request of the log, at its time; catchUp(r.At)
// must have returned true first. The requests it lets start wait for
// the next catchUp.
func (d *door) arrive(r Request, tenant int32) {
	f := &flight{req: r, arrive: r.At}
	// The log's output length stands for the max_new_tokens the client
	// sent: decode's budget counts it (clamped, and clipped at 4,096).
	f.Tenant, f.PromptTokens, f.MaxNewTokens = tenant, r.PromptTokens, r.OutputTokens
	d.sum.Requests++
	if !d.s.Admit(&f.StreamRequest) {
		if f.NeverFits {
			d.sum.neverFits(f)
			return
		}
		d.sum.count(f, r.At, d.inst)
		return
	}
	d.queue = append(d.queue, f)
	d.draining, d.drainAt = true, r.At
}

// catchUp does, within *budget units, the work due by t: it frees, in
// time order, the pages of every request that finishes by t, and starts
// waiting requests as room appears. It reports whether it got to t.
func (d *door) catchUp(t time.Duration, budget *int) bool {
	for {
		if d.draining && !d.drain(budget) {
			return false
		}
		if len(d.running) == 0 || d.running[0].finish > t {
			return true
		}
		if *budget <= 0 {
			return false
		}
		*budget--
		f := heap.Pop(&d.running).(*flight)
		d.s.Release(&f.StreamRequest)
		d.draining, d.drainAt = true, f.finish
	}
}

// drain starts, at drainAt, the waiting requests decode's pool has room
// for, in order: the first that does not fit holds the rest. It reports
// whether it is through, false when the budget ran out first.
func (d *door) drain(budget *int) bool {
	for len(d.queue) > 0 {
		if *budget <= 0 {
			return false
		}
		if !d.s.Serve(&d.queue[0].StreamRequest) {
			break
		}
		*budget--
		f := d.queue[0]
		d.queue[0] = nil
		d.queue = d.queue[1:]
		d.start(f, d.drainAt)
	}
	if len(d.queue) == 0 {
		d.queue = nil // let the array go
	}
	d.draining = false
	return true
}

// start times a request that has its pages from now.
func (d *door) start(f *flight, now time.Duration) {
	d.sum.LongestWait = max(d.sum.LongestWait, now-f.arrive)
	f.finish = now
	if f.NeverSent {
		f.finish = now + WaitingTimeout
	}
	if f.Status == 200 {
		begin := max(now, d.prefill)
		d.prefill = begin + d.timing.prefill(f.Transferred())
		f.finish = d.prefill + d.timing.decode(f.req.OutputTokens)
	}
	d.sum.count(f, now, d.inst)
	heap.Push(&d.running, f)
}

// flights is a min-heap of requests by finish time, then arrival.
type flights []*flight

func (h flights) Len() int { return len(h) }
func (h flights) Less(i, j int) bool {
	if h[i].finish != h[j].finish {
		return h[i].finish < h[j].finish
	}
	return h[i].req.Line < h[j].req.Line
}
func (h flights) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *flights) Push(x any)   { *h = append(*h, x.(*flight)) }
func (h *flights) Pop() any {
	old := *h
	f := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return f
}
