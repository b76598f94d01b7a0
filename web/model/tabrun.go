package model

import (
	"fmt"

	"kvleak/engine"
	"kvleak/internal/jsonlite"
	"kvleak/permalink"
)

// A run too long for a link is kept in the tab's sessionStorage instead, so
// that a reload, the crash banner's Reload or coming Back to the page
// restores it. The address bar then holds TabQuery: a link that says where
// the run is, which only this tab can open.

// TabKey is the sessionStorage key of the run kept in the tab.
const TabKey = "kvleak:run"

// AddressQuery is what the address bar holds: the permalink, or, for a run
// too long for one, the marker of a run kept in this tab.
func (s *Session) AddressQuery() string {
	if s.Linkable() {
		return s.Query(s.view)
	}
	return permalink.EncodeLink(permalink.LinkState{Tab: true}, s.view.keys()...)
}

// tabRun is the run kept in the tab, as JSON: a Link's fields as link
// version 3 kept them, in this order.
type tabRun struct {
	Preset string
	Config engine.Config
	Ops    []engine.Op
	Step   int
	View   View
	Tab    bool `json:",omitempty"`
}

// TabRun is the run to keep in the tab's storage, as JSON: jsonlite's
// encoding of Link as a tabRun. The address bar keeps it after every
// change of a long run, so the operations, which only grow with a run, are
// encoded once each (tabOps): encoding them all again took a fifth of a
// Send's allocations at 1,000 requests. The rest is encoded afresh around
// them.
func (s *Session) TabRun() ([]byte, error) {
	ops, err := s.memo.tabOps.extend(s.ops)
	if err != nil {
		return nil, err
	}
	st := s.Link()
	// tabRun's fields in order: those before Ops, Ops, those after.
	head, err := jsonlite.Marshal(struct {
		Preset string
		Config engine.Config
	}{st.Preset, st.Config})
	if err != nil {
		return nil, err
	}
	tail, err := jsonlite.Marshal(struct {
		Step int
		View View
		Tab  bool `json:",omitempty"`
	}{st.Step, st.View, st.Tab})
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(head)+len(ops)+len(tail)+16)
	out = append(out, head[:len(head)-1]...) // without its "}"
	if s.ops == nil {
		out = append(out, `,"Ops":null,`...)
	} else {
		out = append(append(append(out, `,"Ops":[`...), ops...), "],"...)
	}
	return append(out, tail[1:]...), nil // without its "{"
}

// tabOps is the JSON of a run's operations, comma-separated, up to
// operation n. A session only appends to a run's operations; setRun, which
// starts another run, empties it.
type tabOps struct {
	n   int
	buf []byte
}

// extend encodes the operations added since the last call.
func (t *tabOps) extend(ops []engine.Op) ([]byte, error) {
	if t.n > len(ops) {
		*t = tabOps{}
	}
	for _, op := range ops[t.n:] {
		b, err := jsonlite.Marshal(op)
		if err != nil {
			*t = tabOps{}
			return nil, err
		}
		if t.n > 0 {
			t.buf = append(t.buf, ',')
		}
		t.buf, t.n = append(t.buf, b...), t.n+1
	}
	return t.buf, nil
}

// RestoreTabRun opens a run kept by TabRun. On error nothing changes.
func (s *Session) RestoreTabRun(data []byte) error {
	if len(data) > engine.MaxRunFileBytes {
		return fmt.Errorf("the run kept in this tab is %s bytes; at most %s are read", engine.Thousands(int64(len(data))), engine.Thousands(engine.MaxRunFileBytes))
	}
	var kept tabRun
	kept.Config.ReservedDecodeTokens = -1 // still -1 after reading: kept before link version 4
	if err := jsonlite.Unmarshal(data, &kept); err != nil {
		return fmt.Errorf("the run kept in this tab cannot be read: %v", err)
	}
	if len(kept.Ops) > engine.MaxRequests {
		return fmt.Errorf("the run kept in this tab has %s operations; at most %s", engine.Thousands(int64(len(kept.Ops))), engine.Thousands(engine.MaxRequests))
	}
	st := Link{permalink.LinkState{Preset: kept.Preset, Config: kept.Config, Ops: kept.Ops, Step: kept.Step}, kept.View}
	if _, ok := engine.PresetBySlug(st.Preset); !ok {
		st.Preset = ""
	}
	switch {
	case st.Config.DecodePoolTokens == 0: // kept at link version 2, with one pool
		st.Upgrade("run kept in this tab", "link version 2", true, false)
	case st.Config.ReservedDecodeTokens == -1:
		st.Upgrade("run kept in this tab", "link version 3", false, false)
	}
	return s.ApplyLink(st)
}

// ErrNotInTab says a link names a run kept in another tab.
var ErrNotInTab = fmt.Errorf("this link names a run kept in the tab it was made in, too long for a link; that tab can reopen it, this one cannot (use Export JSON to share a long run)")
