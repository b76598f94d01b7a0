package model

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"kvleak/engine"
)

// Permalink schema. Version 4 keys:
//
//	v=4                      schema version (required when any other key is set)
//	preset=demo              the scenario the run started from; alone (with v
//	                         and optional step/view keys) it loads the preset
//	ctx, pool, dpool, page   the configuration, as integers: the context, the
//	                         prefill and decode servers' pools, the page size
//	reserve                  decode's --num-reserved-decode-tokens (0 or more)
//	mode=vulnerable|fixed|retire-only|length-check-only|upstream
//	alloc=sorted|lifo|fifo   cancel=both|one    scrub=0|1
//	door=none|all|<states joined by dots>   (absent: as the mode retires)
//	wcheck=0|1               gw=off|alert|block  (absent: 0, off)
//	op=s,<tenant>,<tokens>,<end>,<content>[,<max_new_tokens>]   a send; end
//	                         is "-", "fail" or a stage; max_new_tokens only
//	                         when the request sent it
//	op=x,<request>,<outcome>                 settle a deferred release
//	step=<n>                 the selected log step (0 or absent: the latest)
//	compare=1                show the side-by-side engines
//	embed=1  ro=1            embed mode, read-only embed (view.go)
//	view=pipeline|pool|compare|transcript   an embed of one panel
//	theme=light|dark         force a colour scheme
//	tour=<n>                 the guided tour, at card n
//	tab=1                    the run is kept in this tab's storage (tabrun.go);
//	                         only view keys go with it
//
// The settings' keys are the field table's (field.go). Fields inside op are
// query-escaped and joined by literal commas.
//
// Links of versions 1 to 3 keep opening and replay the run they were made
// with (legacy.go), and ApplyLink says what changed. Versions 1 and 2, made
// when the engine had one pool: their slot key is read and dropped,
// decode's pool is set as engine.DecodePoolForSinglePool says, and a
// version 1 link (before alloc) gets the lifo allocator it was made with.
// Versions 1 to 3, made before decode's prealloc budget and the
// max_new_tokens clamp: engine.MigrateV3 gives them no reserve and raises
// decode's pool where a request they decoded needs it.
const linkVersion = "4"

// Bounds that keep a hostile link from hanging or exhausting the page.
const (
	MaxQueryBytes = 16 << 10
	MaxLinkOps    = 200
)

// LinkState is everything a permalink carries.
type LinkState struct {
	Preset string
	Config engine.Config
	Ops    []engine.Op
	Step   int
	View   View
	Tab    bool `json:",omitempty"` // the run is kept in the tab (tabrun.go)
	// Migrated names what changed in an older link's run ("" for none).
	Migrated string `json:"-"`
}

// ErrNoState means the URL carries no state: open the default.
var ErrNoState = errors.New("no state in the link")

// EncodeLink writes the state as a query string (without "?").
func EncodeLink(st LinkState) string {
	parts := []string{"v=" + linkVersion}
	if st.Tab {
		parts = append(parts, "tab=1")
	} else {
		parts = append(parts, runKeys(st)...)
	}
	parts = append(parts, st.View.keys()...)
	return strings.Join(parts, "&")
}

// runKeys are the keys that say which run a link holds.
func runKeys(st LinkState) []string {
	var parts []string
	if st.Preset != "" {
		parts = append(parts, "preset="+url.QueryEscape(st.Preset))
	}
	for _, f := range Settings {
		if f.inLink(st.Config) {
			parts = append(parts, f.Key()+"="+url.QueryEscape(f.value(st.Config)))
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
// It never replays: the caller does, after this has bounded the work. The
// view keys are read even when the run is refused.
func DecodeLink(raw string) (LinkState, error) {
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
				return st, fmt.Errorf("parameter %q is not properly escaped", clip(key))
			}
			val = v
		}
		if seen[key] && key != "op" {
			return st, fmt.Errorf("parameter %q appears twice", clip(key))
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
	case linkVersion:
		if seen["slot"] {
			return st, errors.New(`parameter "slot" is gone in link version 3: decode reserves the pages of the prompt as it sees it`)
		}
	case "1", "2", "3":
		if err := st.migrate(version, slot, seen); err != nil {
			return st, err
		}
	default:
		return st, fmt.Errorf("unknown link version %q: this playground reads versions 1 to %s", clip(version), linkVersion)
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
	if isViewKey(key) {
		return st.View.set(key, val)
	}
	if f, ok := fieldByKey(key); ok {
		if err := f.set(&st.Config, val); err != nil {
			return fmt.Errorf("parameter %s=%q: %v", key, clip(val), err)
		}
		return nil
	}
	switch key {
	case "preset":
		if _, ok := engine.PresetBySlug(val); !ok {
			return fmt.Errorf("unknown preset %q", clip(val))
		}
		st.Preset = val
	case "step":
		n, err := linkInt(val)
		if err != nil {
			return fmt.Errorf("parameter step=%q: %v", clip(val), err)
		}
		st.Step = n
	case "tab":
		if val != "1" {
			return fmt.Errorf("parameter tab=%q: must be 1", clip(val))
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
		return fmt.Errorf("unknown parameter %q", clip(key))
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

// clip shortens hostile text before it is shown in a banner.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
