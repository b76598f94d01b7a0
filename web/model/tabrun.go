package model

import (
	"fmt"

	"kvleak/engine"
	"kvleak/internal/jsonlite"
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
	return EncodeLink(LinkState{Tab: true, View: s.view})
}

// TabRun is the run to keep in the tab's storage, as JSON.
func (s *Session) TabRun() ([]byte, error) { return jsonlite.Marshal(s.Link()) }

// RestoreTabRun opens a run kept by TabRun. On error nothing changes.
func (s *Session) RestoreTabRun(data []byte) error {
	if len(data) > engine.MaxRunFileBytes {
		return fmt.Errorf("the run kept in this tab is %s bytes; at most %s are read", engine.Thousands(int64(len(data))), engine.Thousands(engine.MaxRunFileBytes))
	}
	var st LinkState
	if err := jsonlite.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("the run kept in this tab cannot be read: %v", err)
	}
	if len(st.Ops) > engine.MaxRequests {
		return fmt.Errorf("the run kept in this tab has %s operations; at most %s", engine.Thousands(int64(len(st.Ops))), engine.Thousands(engine.MaxRequests))
	}
	if _, ok := engine.PresetBySlug(st.Preset); !ok {
		st.Preset = ""
	}
	st.Tab = false
	return s.ApplyLink(st)
}

// ErrNotInTab says a link names a run kept in another tab.
var ErrNotInTab = fmt.Errorf("this link names a run kept in the tab it was made in, too long for a link; that tab can reopen it, this one cannot (use Export JSON to share a long run)")
