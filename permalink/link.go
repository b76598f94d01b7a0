package permalink

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"kvleak/engine"
)

// Version is the schema version the links written now carry (doc.go).
const Version = "4"

// Bounds that keep a hostile link from hanging or exhausting the page.
const (
	MaxQueryBytes = 16 << 10
	MaxLinkOps    = 200
)

// LinkState is the run a permalink carries. How it is shown (its view
// keys) is the page's: EncodeLink writes them and DecodeLink hands them on.
type LinkState struct {
	Preset string
	Config engine.Config
	Ops    []engine.Op
	Step   int
	Tab    bool `json:",omitempty"` // the run is kept in the tab (web/model/tabrun.go)
	// Migrated names what changed in an older link's run ("" for none).
	Migrated string `json:"-"`
}

// ErrNoState means the URL carries no state: open the default.
var ErrNoState = errors.New("no state in the link")

// viewKeys are the keys that say how a run is shown, not which run it is
// (doc.go): they go with any link, and a link with only them carries no
// state.
var viewKeys = []string{"compare", "embed", "ro", "view", "theme", "tour", "challenge"}

func isViewKey(k string) bool { return slices.Contains(viewKeys, k) }

// EncodeLink writes the state as a query string (without "?"), then view:
// the view's keys as key=value, written as given.
func EncodeLink(st LinkState, view ...string) string {
	parts := []string{"v=" + Version}
	if st.Tab {
		parts = append(parts, "tab=1")
	} else {
		parts = append(parts, runKeys(st)...)
	}
	return strings.Join(append(parts, view...), "&")
}

// RunQuery is the part of EncodeLink's query that says which run it holds:
// what follows "v=4&" when the run is not kept in the tab.
func RunQuery(st LinkState) string { return strings.Join(runKeys(st), "&") }

// runKeys are the keys that say which run a link holds.
func runKeys(st LinkState) []string {
	var parts []string
	if st.Preset != "" {
		parts = append(parts, "preset="+url.QueryEscape(st.Preset))
	}
	for _, s := range Settings {
		if s.inLink(st.Config) {
			parts = append(parts, s.Key()+"="+url.QueryEscape(s.Value(st.Config)))
		}
	}
	for _, op := range st.Ops {
		parts = append(parts, "op="+encodeOp(op))
	}
	if st.Step > 0 {
		parts = append(parts, "step="+strconv.Itoa(st.Step))
	}
	return parts
}

// DecodeLink reads a raw query string. It returns ErrNoState for a URL
// without state, and a message fit for a banner for anything it refuses.
// It never replays: the caller does, after this has bounded the work.
// View reads each view key (doc.go) as it comes, unescaped, and refuses a
// bad one with a message; nil passes over them. The view keys before a
// refusal are read even when the run is refused.
func DecodeLink(raw string, view func(key, val string) error) (LinkState, error) {
	st := LinkState{Config: engine.DemoConfig()}
	if raw == "" {
		return st, ErrNoState
	}
	if len(raw) > MaxQueryBytes {
		return st, fmt.Errorf("the link is %s bytes long; at most %s are read", engine.Thousands(int64(len(raw))), engine.Thousands(MaxQueryBytes))
	}
	pairs := strings.Split(raw, "&")
	if len(pairs) > MaxLinkOps+32 {
		return st, fmt.Errorf("the link has %d parameters; at most %d requests fit in a link", len(pairs), MaxLinkOps)
	}
	seen := map[string]bool{}
	version, slot := "", ""
	for _, pair := range pairs {
		if pair == "" {
			continue
		}
		key, val, _ := strings.Cut(pair, "=")
		if key != "op" {
			v, err := url.QueryUnescape(val)
			if err != nil {
				return st, fmt.Errorf("parameter %q is not properly escaped", Clip(key))
			}
			val = v
		}
		if seen[key] && key != "op" {
			return st, fmt.Errorf("parameter %q appears twice", Clip(key))
		}
		seen[key] = true
		if key == "v" {
			version = val
			continue
		}
		if key == "slot" {
			slot = val // version 1 and 2's pages per slot: checked below
			continue
		}
		if isViewKey(key) {
			if view != nil {
				if err := view(key, val); err != nil {
					return st, err
				}
			}
			continue
		}
		if err := st.set(key, val); err != nil {
			return st, err
		}
	}
	for k := range seen {
		if isViewKey(k) {
			delete(seen, k)
		}
	}
	if len(seen) == 0 {
		return st, ErrNoState
	}
	switch version {
	case Version:
		if seen["slot"] {
			return st, errors.New(`parameter "slot" is gone in link version 3: decode reserves the pages of the prompt as it sees it`)
		}
	case "1", "2", "3":
		if err := st.migrate(version, slot, seen); err != nil {
			return st, err
		}
	default:
		return st, fmt.Errorf("unknown link version %q: this playground reads versions 1 to %s", Clip(version), Version)
	}
	if st.Tab {
		if len(seen) > 2 { // v and tab
			return st, errors.New("parameter tab=1 names a run kept in the tab and takes no other run parameters")
		}
		return st, nil
	}
	if st.Preset != "" && onlyPreset(seen) {
		p, _ := engine.PresetBySlug(st.Preset) // short form: ?v=4&preset=demo
		st.Config, st.Ops = p.Config, p.Ops
	}
	if err := st.Config.Validate(); err != nil {
		return st, fmt.Errorf("the link's settings are not valid: %v", err)
	}
	if w := engine.ReplayWork(st.Config, st.Ops); w > engine.MaxReplayWork {
		return st, fmt.Errorf("the link's requests would touch %s pages; a link may ask for at most %s", engine.Thousands(w), engine.Thousands(engine.MaxReplayWork))
	}
	return st, nil
}

// onlyPreset reports whether a link names a preset and nothing of the run.
func onlyPreset(seen map[string]bool) bool {
	for k := range seen {
		if k != "preset" && k != "step" && k != "v" {
			return false
		}
	}
	return true
}

// set applies one decoded parameter.
func (st *LinkState) set(key, val string) error {
	if s, ok := settingByKey(key); ok {
		if err := s.set(&st.Config, val); err != nil {
			return fmt.Errorf("parameter %s=%q: %v", key, Clip(val), err)
		}
		return nil
	}
	switch key {
	case "preset":
		if _, ok := engine.PresetBySlug(val); !ok {
			return fmt.Errorf("unknown preset %q", Clip(val))
		}
		st.Preset = val
	case "step":
		n, err := linkInt(val)
		if err != nil {
			return fmt.Errorf("parameter step=%q: %v", Clip(val), err)
		}
		st.Step = n
	case "tab":
		if val != "1" {
			return fmt.Errorf("parameter tab=%q: must be 1", Clip(val))
		}
		st.Tab = true
	case "op":
		if len(st.Ops) >= MaxLinkOps {
			return fmt.Errorf("the link has more than %d requests: at most %d fit in a link", MaxLinkOps, MaxLinkOps)
		}
		op, err := decodeOp(val)
		if err != nil {
			return fmt.Errorf("request %d in the link: %v", len(st.Ops)+1, err)
		}
		st.Ops = append(st.Ops, op)
	default:
		return fmt.Errorf("unknown parameter %q", Clip(key))
	}
	return nil
}

// linkInt reads a link's plain whole number.
func linkInt(val string) (int, error) {
	n, err := strconv.Atoi(val)
	if err != nil || n < 0 || len(val) > 10 {
		return 0, errors.New("must be a whole number")
	}
	return n, nil
}

// Clip shortens hostile text before a message shows it in a banner: the
// codec's messages, and the page's about what a link or a field held.
func Clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
