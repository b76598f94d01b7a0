package web

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"kvleak/engine"
)

// Permalink schema. Version 1 keys:
//
//	v=1                      schema version (required when any other key is set)
//	preset=demo              the scenario the run started from; alone (with v
//	                         and optional step/view keys) it loads the preset
//	ctx, pool, page, slot    the configuration, as integers
//	mode=vulnerable|fixed    cancel=both|one    scrub=0|1
//	op=s,<tenant>,<tokens>,<end>,<content>   a send; end is "-", "fail" or a stage
//	op=x,<request>,<outcome>                 settle a deferred release
//	step=<n>                 the selected log step (0 or absent: the latest)
//	compare=1                show the side-by-side engines
//	embed=1  ro=1            embed mode, read-only embed
//
// Fields inside op are query-escaped and joined by literal commas. A later
// schema adds keys or versions; version 1 links keep this reading forever.
const permalinkVersion = "1"

// Bounds that keep a hostile link from hanging or exhausting the page.
const (
	maxQueryBytes = 16 << 10
	maxLinkOps    = 200
	// maxLinkWork bounds the pages a link's requests may touch in total.
	maxLinkWork = 8_000_000
)

// linkState is everything a permalink carries.
type linkState struct {
	Preset   string
	Config   engine.Config
	Ops      []engine.Op
	Step     int
	Compare  bool
	Embed    bool
	ReadOnly bool
}

// errNoState means the URL carries no state: open the default.
var errNoState = errors.New("no state in the link")

// encodeLink writes the state as a query string (without "?").
func encodeLink(st linkState) string {
	c := st.Config
	parts := []string{"v=" + permalinkVersion}
	if st.Preset != "" {
		parts = append(parts, "preset="+url.QueryEscape(st.Preset))
	}
	scrub := "0"
	if c.ScrubOnFree {
		scrub = "1"
	}
	parts = append(parts,
		"ctx="+strconv.Itoa(c.ContextTokens), "pool="+strconv.Itoa(c.PoolTokens),
		"page="+strconv.Itoa(c.PageTokens), "slot="+strconv.Itoa(c.SlotPages),
		"mode="+string(c.Mode), "cancel="+string(c.Cancel), "scrub="+scrub)
	for _, op := range st.Ops {
		parts = append(parts, "op="+encodeOp(op))
	}
	if st.Step > 0 {
		parts = append(parts, "step="+strconv.Itoa(st.Step))
	}
	if st.Compare {
		parts = append(parts, "compare=1")
	}
	if st.Embed {
		parts = append(parts, "embed=1")
	}
	if st.ReadOnly {
		parts = append(parts, "ro=1")
	}
	return strings.Join(parts, "&")
}

func encodeOp(op engine.Op) string {
	esc := url.QueryEscape
	if op.Settle != nil {
		return "x," + strconv.Itoa(op.Settle.Request) + "," + esc(string(op.Settle.Outcome))
	}
	r := op.Send
	end := "-"
	switch {
	case r.FailTransfer:
		end = "fail"
	case r.CancelAt != "":
		end = string(r.CancelAt)
	}
	return strings.Join([]string{"s", esc(r.Tenant), strconv.Itoa(r.PromptTokens), esc(end), esc(r.Content)}, ",")
}

// decodeLink reads a raw query string. It returns errNoState for a URL
// without state, and a message fit for a banner for anything it refuses.
// It never replays: the caller does, after this has bounded the work.
func decodeLink(raw string) (linkState, error) {
	st := linkState{Config: engine.DemoConfig()}
	if raw == "" {
		return st, errNoState
	}
	if len(raw) > maxQueryBytes {
		return st, fmt.Errorf("the link is %s bytes long; at most %s are read", engine.Thousands(int64(len(raw))), engine.Thousands(maxQueryBytes))
	}
	pairs := strings.Split(raw, "&")
	if len(pairs) > maxLinkOps+32 {
		return st, fmt.Errorf("the link has %d parameters; at most %d requests fit in a link", len(pairs), maxLinkOps)
	}
	seen := map[string]bool{}
	version := ""
	for _, pair := range pairs {
		if pair == "" {
			continue
		}
		key, val, _ := strings.Cut(pair, "=")
		if key != "op" {
			v, err := url.QueryUnescape(val)
			if err != nil {
				return st, fmt.Errorf("parameter %q is not properly escaped", key)
			}
			val = v
		}
		if seen[key] && key != "op" {
			return st, fmt.Errorf("parameter %q appears twice", key)
		}
		seen[key] = true
		if key == "v" {
			version = val
			continue
		}
		if err := st.set(key, val); err != nil {
			return st, err
		}
	}
	for _, view := range []string{"embed", "ro", "compare"} {
		delete(seen, view) // how to show a run, not which run
	}
	if len(seen) == 0 {
		return st, errNoState
	}
	if version != permalinkVersion {
		return st, fmt.Errorf("unknown link version %q: this playground reads version %s", version, permalinkVersion)
	}
	if st.Preset != "" && !seen["ctx"] && !seen["pool"] && !seen["page"] && !seen["slot"] &&
		!seen["mode"] && !seen["cancel"] && !seen["scrub"] && !seen["op"] {
		p, _ := engine.PresetBySlug(st.Preset) // short form: ?v=1&preset=demo
		st.Config, st.Ops = p.Config, p.Ops
	}
	if err := st.Config.Validate(); err != nil {
		return st, fmt.Errorf("the link's settings are not valid: %v", err)
	}
	if w := linkWork(st.Config, st.Ops); w > maxLinkWork {
		return st, fmt.Errorf("the link's requests would touch %s pages; a link may ask for at most %s", engine.Thousands(w), engine.Thousands(maxLinkWork))
	}
	return st, nil
}

// set applies one decoded parameter.
func (st *linkState) set(key, val string) error {
	num := func(dst *int) error {
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 || len(val) > 10 {
			return fmt.Errorf("parameter %s=%q: must be a whole number", key, clip(val))
		}
		*dst = n
		return nil
	}
	c := &st.Config
	switch key {
	case "preset":
		if _, ok := engine.PresetBySlug(val); !ok {
			return fmt.Errorf("unknown preset %q", clip(val))
		}
		st.Preset = val
	case "ctx":
		return num(&c.ContextTokens)
	case "pool":
		return num(&c.PoolTokens)
	case "page":
		return num(&c.PageTokens)
	case "slot":
		return num(&c.SlotPages)
	case "step":
		return num(&st.Step)
	case "mode":
		c.Mode = engine.Mode(val)
	case "cancel":
		c.Cancel = engine.CancelPolicy(val)
	case "scrub":
		c.ScrubOnFree = val == "1"
		if val != "0" && val != "1" {
			return fmt.Errorf("parameter scrub=%q: must be 0 or 1", clip(val))
		}
	case "embed":
		st.Embed = val == "1"
	case "ro":
		st.ReadOnly = val == "1"
	case "compare":
		st.Compare = val == "1"
	case "op":
		if len(st.Ops) >= maxLinkOps {
			return fmt.Errorf("the link has more than %d requests: at most %d fit in a link", maxLinkOps, maxLinkOps)
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

func decodeOp(raw string) (engine.Op, error) {
	fields := strings.Split(raw, ",")
	for i, f := range fields {
		v, err := url.QueryUnescape(f)
		if err != nil {
			return engine.Op{}, errors.New("not properly escaped")
		}
		fields[i] = v
	}
	switch {
	case len(fields) == 3 && fields[0] == "x":
		id, err := strconv.Atoi(fields[1])
		if err != nil || id < 1 || id > engine.MaxRequests {
			return engine.Op{}, fmt.Errorf("settle of request %q: not a request number", clip(fields[1]))
		}
		return engine.SettleOp(id, engine.Outcome(fields[2])), nil
	case len(fields) == 5 && fields[0] == "s":
		n, err := strconv.Atoi(fields[2])
		if err != nil || len(fields[2]) > 10 {
			return engine.Op{}, fmt.Errorf("prompt length %q: not a whole number", clip(fields[2]))
		}
		r := engine.Request{Tenant: fields[1], PromptTokens: n, Content: fields[4]}
		switch end := fields[3]; end {
		case "-":
		case "fail":
			r.FailTransfer = true
		default:
			r.CancelAt = engine.Stage(end)
		}
		if err := r.Validate(); err != nil {
			return engine.Op{}, err
		}
		return engine.SendOp(r), nil
	}
	return engine.Op{}, errors.New(`must be "s,<tenant>,<tokens>,<end>,<content>" or "x,<request>,<outcome>"`)
}

// linkWork estimates the pages a run's sends touch, to refuse a link that
// would take minutes to replay before trying it.
func linkWork(c engine.Config, ops []engine.Op) int64 {
	if c.PageTokens < 1 {
		return 0
	}
	var w int64
	for _, op := range ops {
		if op.Send != nil {
			tok := min(op.Send.PromptTokens, c.PoolTokens)
			w += int64(tok/c.PageTokens + c.SlotPages + 1)
		}
	}
	return w
}

// clip shortens hostile text before it is shown in a banner.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
