package replay

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"kvleak/engine"
)

// MaxPairsKept bounds the victim → recipient pairs a summary names; all
// are counted (DoorSummary.PairsTotal).
const MaxPairsKept = 1_000

// DoorSummary is what one door answered over the whole log.
type DoorSummary struct {
	Requests int `json:"requests"`
	OK       int `json:"ok"`       // HTTP 200
	Rejected int `json:"rejected"` // HTTP 400
	Failed   int `json:"failed"`   // HTTP 500: SGLang's per-server door in the window
	// Window counts the requests prefill rejected and decode admitted.
	Window int `json:"window"`
	// Leaked counts the responses that carried another tenant's KV, and
	// LeakedPages and LeakedTokens how much of it: pages whose first
	// position another tenant wrote, positions another tenant wrote.
	Leaked       int   `json:"leaked"`
	LeakedPages  int64 `json:"leakedPages"`
	LeakedTokens int64 `json:"leakedTokens"`
	// ExposedTenants counts the tenants whose KV reached another tenant.
	ExposedTenants int `json:"exposedTenants"`
	// Pairs are who saw whose KV, the most responses first; at most
	// MaxPairsKept of PairsTotal.
	Pairs      []Pair `json:"pairs"`
	PairsTotal int    `json:"pairsTotal"`
	// FirstLeak is the first response that carried another's KV.
	FirstLeak *FirstLeak `json:"firstLeak,omitempty"`
	// LongestWait is the longest a request waited in DecodePreallocQueue.
	LongestWait time.Duration `json:"longestWaitNs"`
	// NeverFit counts the requests decode's prealloc budget could not take
	// even on an idle pool (fill_len + its reserve, or the prompt and its
	// output, past the pool): SGLang would hold them, and every request
	// behind them, in DecodePreallocQueue for good. The replay sets them
	// aside instead; NeverFitLines are the first few of their log lines.
	NeverFit      int   `json:"neverFit,omitempty"`
	NeverFitLines []int `json:"neverFitLines,omitempty"`
	// Chart counts leaked responses over the log's time.
	Chart Chart `json:"chart"`

	instances int // the instances it counts over

	pairs   map[[2]int32]int // victim, recipient → index in Pairs
	exposed map[int32]*exposure
	order   []int32 // the exposed tenants, first exposed first
	names   func(int32) string
	files   *files // the vulnerable door's: whom to tell
}

// Pair is one tenant's KV reaching another's responses.
type Pair struct {
	Victim    string `json:"victim"`
	Recipient string `json:"recipient"`
	Responses int    `json:"responses"`
	Pages     int64  `json:"pages"`
	Tokens    int64  `json:"tokens"`
	// Instances are the instances (from 1) it happened on, the first
	// MaxInstancesNamed of them; nil through one instance.
	Instances []int `json:"instances,omitempty"`
}

// MaxInstancesNamed bounds the instances a kept pair names.
const MaxInstancesNamed = 8

// Where says which instances a pair happened on, "on instance 2" or "on
// instances 1, 3"; "" through one instance.
func (p Pair) Where() string {
	switch len(p.Instances) {
	case 0:
		return ""
	case 1:
		return "on instance " + strconv.Itoa(p.Instances[0])
	}
	var b strings.Builder
	b.WriteString("on instances ")
	for i, n := range p.Instances {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(n))
	}
	if len(p.Instances) == MaxInstancesNamed {
		b.WriteString(", …")
	}
	return b.String()
}

// FirstLeak is the first leaked response: where it is in the log and
// whose KV it carried.
type FirstLeak struct {
	Line         int           `json:"line"`
	At           time.Duration `json:"atNs"`
	Tenant       string        `json:"tenant"`
	PromptTokens int           `json:"promptTokens"`
	Victims      []Pair        `json:"victims"`
	// Instance is the instance (from 1) that served it.
	Instance int `json:"instance"`
}

func newDoorSummary(names func(int32) string, instances int, fs *files) *DoorSummary {
	return &DoorSummary{pairs: map[[2]int32]int{}, exposed: map[int32]*exposure{}, names: names, instances: instances, files: fs}
}

// count takes a request's answer, given at now on instance inst.
// maxNeverFitLines bounds the lines kept of the requests that never fit.
const maxNeverFitLines = 5

// neverFits counts a request decode's budget can never take.
func (s *DoorSummary) neverFits(f *flight) {
	s.NeverFit++
	if f.Window {
		s.Window++
	}
	if len(s.NeverFitLines) < maxNeverFitLines {
		s.NeverFitLines = append(s.NeverFitLines, f.req.Line)
	}
}

func (s *DoorSummary) count(f *flight, now time.Duration, inst int) {
	switch f.Status {
	case 200:
		s.OK++
	case 400:
		s.Rejected++
	case 500:
		s.Failed++
	}
	if f.Window {
		s.Window++
	}
	if !f.Leaked() {
		return
	}
	s.Leaked++
	s.LeakedPages += int64(f.ForeignPages)
	s.LeakedTokens += int64(f.ForeignTokens)
	s.Chart.add(now)
	var victims []Pair
	for _, l := range f.Leaks {
		if l.Tokens <= 0 {
			continue
		}
		e := s.exposure(l.Tenant, f.req.At)
		e.responses++
		e.pages += int64(l.Pages)
		e.tokens += int64(l.Tokens)
		e.first, e.last = min(e.first, f.req.At), max(e.last, f.req.At)
		p := s.pair(l.Tenant, f.Tenant, e)
		if p != nil {
			p.Responses++
			p.Pages += int64(l.Pages)
			p.Tokens += int64(l.Tokens)
			p.Instances = s.addInstance(p.Instances, inst)
		}
		if s.files != nil {
			s.files.pair(s.names(l.Tenant), s.names(f.Tenant), f.req, l.Pages, l.Tokens, inst)
		}
		victims = append(victims, Pair{Victim: s.names(l.Tenant), Recipient: s.names(f.Tenant), Responses: 1, Pages: int64(l.Pages), Tokens: int64(l.Tokens), Instances: s.addInstance(nil, inst)})
	}
	s.ExposedTenants = len(s.exposed)
	if s.FirstLeak == nil {
		s.FirstLeak = &FirstLeak{Line: f.req.Line, At: now, Tenant: s.names(f.Tenant), PromptTokens: f.PromptTokens, Victims: victims, Instance: inst + 1}
	}
}

// exposure is what tenant's KV has reached so far, first reached at at.
func (s *DoorSummary) exposure(tenant int32, at time.Duration) *exposure {
	e := s.exposed[tenant]
	if e == nil {
		e = &exposure{first: at, last: at}
		s.exposed[tenant] = e
		s.order = append(s.order, tenant)
	}
	return e
}

// addInstance adds instance inst (from 0) to a pair's, through more than
// one instance.
func (s *DoorSummary) addInstance(list []int, inst int) []int {
	if s.instances <= 1 || len(list) >= MaxInstancesNamed || slices.Contains(list, inst+1) {
		return list
	}
	return append(list, inst+1)
}

// pair is the kept pair of victim and recipient, nil past MaxPairsKept;
// e is the victim's exposure, which counts its distinct recipients.
func (s *DoorSummary) pair(victim, recipient int32, e *exposure) *Pair {
	k := [2]int32{victim, recipient}
	if i, ok := s.pairs[k]; ok {
		if i < 0 {
			return nil
		}
		return &s.Pairs[i]
	}
	e.recipients++
	if len(e.named) < MaxRecipientsNamed {
		e.named = append(e.named, recipient)
	}
	s.PairsTotal++
	if len(s.Pairs) >= MaxPairsKept {
		s.pairs[k] = -1
		return nil
	}
	s.pairs[k] = len(s.Pairs)
	s.Pairs = append(s.Pairs, Pair{Victim: s.names(victim), Recipient: s.names(recipient)})
	return &s.Pairs[len(s.Pairs)-1]
}

// finish sorts the pairs, the most responses first, and writes the
// tenants file.
func (s *DoorSummary) finish() {
	// sort.SliceStable, not slices.SortStableFunc: a sort instantiated
	// for Pair costs the wasm about 8 KB.
	sort.SliceStable(s.Pairs, func(i, j int) bool { return s.Pairs[i].Responses > s.Pairs[j].Responses })
	s.pairs = nil
	if s.files != nil {
		s.files.exposed(s.order, s.exposed, s.names)
	}
	s.exposed, s.order = nil, nil
}

// Ops is a run of the playground that shows the first leak at the
// page's settings: the first victim sends a prompt both servers read in
// full, then the leaking request's tenant sends its prompt. It is not
// the log's history, only the leak's shape: which pages and how much of
// the victim's KV it reads depend on the run.
func (l *FirstLeak) Ops(cfg engine.Config) []engine.Op {
	if l == nil || len(l.Victims) == 0 {
		return nil
	}
	longest := min(cfg.LimitsOf(engine.ServerPrefill).MaxReqInputLen(), cfg.LimitsOf(engine.ServerDecode).MaxReqInputLen()) - 1
	victim := min(max(l.PromptTokens-1, 1), longest)
	return []engine.Op{
		engine.SendOp(engine.Request{Tenant: l.Victims[0].Victim, PromptTokens: victim, Content: "stale KV"}),
		engine.SendOp(engine.Request{Tenant: l.Tenant, PromptTokens: l.PromptTokens, Content: "a prompt prefill rejected"}),
	}
}
