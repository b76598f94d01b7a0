package replay

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"kvleak/engine"
)

// Options are a replay's settings: the deployment (the page's settings;
// each side sets its own door), who sent what where the log does not say,
// and the timing model.
type Options struct {
	Config  engine.Config
	Tenancy Tenancy
	Timing  Timing
	// Fix is the fixed side's door: engine.Fixed, Cloudflare's patch as
	// the article tells it (the default), or engine.Upstream, SGLang's
	// per-server door (#38935).
	Fix engine.Mode
	// Instances is how many prefill/decode pairs of Config serve the log
	// behind a router (0 is 1), each with its own two pools and its own
	// prefill queue; Route says how the router spreads the requests.
	Instances int
	// Files are where the replay writes whom to tell.
	Files Files
	// Notes are the caller's, first in Result.Notes: where the settings
	// came from.
	Notes []string
}

// MaxInstances bounds Options.Instances: every request catches up every
// instance, so the replay's time grows with them.
const MaxInstances = 1_000

// Result is a whole log replayed through both doors.
type Result struct {
	Format Format  `json:"format"`
	Lines  int     `json:"lines"`
	Skip   Skipped `json:"skipped"`
	// Notes say what the replay assumed: tenants, timing, what it leaves out.
	Notes []string `json:"notes"`
	// Span is the time from the log's origin to its last request.
	Span time.Duration `json:"spanNs"`
	// Vulnerable is the door that checks only finished(); Fixed is
	// Options.Fix's.
	Vulnerable DoorSummary   `json:"vulnerable"`
	Fixed      DoorSummary   `json:"fixed"`
	Fix        engine.Mode   `json:"fix"`
	Config     engine.Config `json:"config"`
	Instances  int           `json:"instances"`
}

// Replay streams a request log through the vulnerable and the fixed door
// a chunk at a time (Step), so that a page can paint between chunks.
type Replay struct {
	rd    *Reader
	cfg   engine.Config
	opts  Options
	doors [2][]*door // each side's instances
	sums  [2]*DoorSummary
	files *files
	// rr is the next instance of the router's round-robin; sessions counts
	// the requests it routed by their session.
	rr, sessions int
	// named numbers the tenants a log names, from -1 down; a request that
	// is its own tenant is numbered by its line, from 1 up.
	named map[string]int32
	names []string
	span  time.Duration
	// next is the request read and not yet taken by both doors, which
	// first catch up to its time (admitted says which did).
	next     *Request
	nextID   int32
	nextInst int
	admitted [2]bool
	ending   bool // the log is read: Step ends the requests in flight
	done     bool
}

// New checks the options and the log's first line and returns a replay
// ready to Step.
func New(r io.Reader, opts Options) (*Replay, error) {
	if err := opts.Timing.Check(); err != nil {
		return nil, err
	}
	switch opts.Fix {
	case "":
		opts.Fix = engine.Fixed
	case engine.Fixed, engine.Upstream:
	default:
		return nil, fmt.Errorf("fix %q: must be %q (Cloudflare's patch) or %q (SGLang's per-server door)", opts.Fix, engine.Fixed, engine.Upstream)
	}
	switch {
	case opts.Instances == 0:
		opts.Instances = 1
	case opts.Instances < 0 || opts.Instances > MaxInstances:
		return nil, fmt.Errorf("instances %d: must be between 1 and %s", opts.Instances, thousands(MaxInstances))
	}
	rp := &Replay{cfg: opts.Config, opts: opts, named: map[string]int32{}}
	for i, mode := range []engine.Mode{engine.Vulnerable, opts.Fix} {
		cfg := opts.Config
		cfg.Mode, cfg.Door = mode, engine.DoorFromMode
		var fs *files
		if i == 0 && (opts.Files.Pairs != nil || opts.Files.Tenants != nil) {
			fs = newFiles(opts.Files)
			rp.files = fs
		}
		rp.sums[i] = newDoorSummary(rp.name, opts.Instances, fs)
		for n := range opts.Instances {
			d, err := newDoor(cfg, opts.Timing, rp.sums[i], n)
			if err != nil {
				return nil, err
			}
			rp.doors[i] = append(rp.doors[i], d)
		}
	}
	rd, err := NewReader(r, opts.Tenancy)
	if err != nil {
		return nil, err
	}
	rp.rd = rd
	return rp, nil
}

// Step does up to n more units of work — a request read, a request's
// pages freed, a waiting request started — and returns true once the log
// is done and every request answered; an error is a log with no usable
// request or one that cannot be read. The units keep a step short: one
// release can start hundreds of waiting requests.
func (rp *Replay) Step(n int) (bool, error) {
	if rp.done {
		return true, nil
	}
	if rp.files != nil {
		if err := rp.files.err(); err != nil {
			return false, fmt.Errorf("writing a file: %w", err)
		}
	}
	budget := n
	for budget > 0 {
		if rp.next == nil && !rp.ending {
			r, err := rp.rd.Read()
			if err == io.EOF {
				rp.ending = true
			} else if err != nil {
				return false, err
			} else {
				budget--
				rp.span = r.At
				rp.next, rp.nextID, rp.nextInst, rp.admitted = &r, rp.tenant(r), rp.route(r), [2]bool{}
			}
		}
		until := time.Duration(1<<63 - 1) // the end: every request answered
		if rp.next != nil {
			until = rp.next.At
		}
		for i, side := range rp.doors {
			if rp.next != nil && rp.admitted[i] {
				continue
			}
			for _, d := range side { // every instance, so that answers come in time order
				if !d.catchUp(until, &budget) {
					return false, nil
				}
			}
			if rp.next != nil {
				side[rp.nextInst].arrive(*rp.next, rp.nextID)
				rp.admitted[i] = true
			}
		}
		if rp.next == nil { // ending, and every door caught up
			for _, s := range rp.sums {
				s.finish()
			}
			rp.done = true
			if rp.files != nil {
				if err := rp.files.err(); err != nil {
					return false, fmt.Errorf("writing a file: %w", err)
				}
			}
			return true, nil
		}
		rp.next = nil
	}
	return false, nil
}

// Requests is how many requests have been read so far.
func (rp *Replay) Requests() int { return rp.rd.Requests() }

// Result is the replay's result; complete once Step has returned true.
func (rp *Replay) Result() Result {
	res := Result{
		Format: rp.rd.Format(), Lines: rp.rd.Lines(), Skip: rp.rd.Skipped(), Span: rp.span,
		Vulnerable: *rp.sums[0], Fixed: *rp.sums[1], Fix: rp.opts.Fix, Config: rp.cfg, Instances: rp.opts.Instances,
	}
	res.Vulnerable.Chart.widen(res.Fixed.Chart.Width)
	res.Fixed.Chart.widen(res.Vulnerable.Chart.Width)
	res.Notes = append(append(slices.Clip(rp.opts.Notes), rp.rd.Notes()...), rp.opts.Timing.Note(),
		"Each request is sent to both servers as the playground sends one; cancels, deferred releases, the writer check and the gateway are not replayed.")
	if n := rp.opts.Instances; n > 1 {
		res.Notes = append(res.Notes, rp.routeNote())
	}
	if note := neverFitNote(res.Vulnerable, rp.cfg); note != "" {
		res.Notes = append(res.Notes, note)
	}
	if w := res.Vulnerable.LongestWait; w > time.Minute {
		pairs := "one prefill/decode pair of these sizes does not"
		if n := rp.opts.Instances; n > 1 {
			pairs = thousands(n) + " prefill/decode pairs of these sizes do not"
		}
		res.Notes = append(res.Notes, fmt.Sprintf("A request waited up to %s for decode's pages: %s keep up with this log at this timing. Which responses leak depends on which stale pages a reservation gets, not on when it gets them.", w.Round(time.Second), pairs))
	}
	return res
}

// Run replays a whole log.
func Run(r io.Reader, opts Options) (Result, error) {
	rp, err := New(r, opts)
	if err != nil {
		return Result{}, err
	}
	for {
		done, err := rp.Step(4096)
		if err != nil {
			return Result{}, err
		}
		if done {
			return rp.Result(), nil
		}
	}
}

// tenant numbers a request's tenant.
func (rp *Replay) tenant(r Request) int32 {
	if r.Own {
		return int32(r.Line)
	}
	if id, ok := rp.named[r.Tenant]; ok {
		return id
	}
	rp.names = append(rp.names, r.Tenant)
	id := -int32(len(rp.names))
	rp.named[r.Tenant] = id
	return id
}

// name is a tenant's name from its number.
func (rp *Replay) name(id int32) string {
	if id > 0 {
		return "line " + strconv.Itoa(int(id))
	}
	return rp.names[-id-1]
}

// neverFitNote names the requests decode's prealloc budget could never
// take ("" when there were none).
func neverFitNote(s DoorSummary, cfg engine.Config) string {
	if s.NeverFit == 0 {
		return ""
	}
	lines := make([]string, len(s.NeverFitLines))
	for i, l := range s.NeverFitLines {
		lines[i] = thousands(l)
	}
	more := ""
	if s.NeverFit > len(lines) {
		more = ", …"
	}
	return fmt.Sprintf("%s %s never fit decode's prealloc budget, even on an idle pool of %s tokens with %s reserved for decoding (log %s %s%s): SGLang would hold %s and every request behind %s in DecodePreallocQueue for good. The replay sets %s aside and goes on; %s not counted above.",
		thousands(s.NeverFit), plural(s.NeverFit, "request", "requests"), thousands(cfg.PagesOf(engine.ServerDecode)*cfg.PageTokens), thousands(cfg.ReservedDecodeTokens),
		plural(len(lines), "line", "lines"), strings.Join(lines, ", "), more,
		plural(s.NeverFit, "it", "them"), plural(s.NeverFit, "it", "them"), plural(s.NeverFit, "it", "them"), plural(s.NeverFit, "it is", "they are"))
}
