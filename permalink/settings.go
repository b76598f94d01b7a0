package permalink

import (
	"fmt"

	"kvleak/engine"
)

// Setting is one of the engine's settings as a link carries it: its key
// and its place in engine.Config. The page's field table
// (web/model/field.go) gives each its label, hint and input; the codec and
// the session share this. The zero Setting is none: the page's fields
// that are not settings have it.
type Setting struct {
	key    string
	num    func(*engine.Config) *int
	choice func(*engine.Config) *string
	flag   func(*engine.Config) *bool
	// An optional setting is left out of a link while at its default,
	// zero, so links made before it existed read the same.
	optional bool
	zero     string
}

// The settings, each by its page field's name.
var (
	Context = Setting{key: "ctx", num: func(c *engine.Config) *int { return &c.ContextTokens }}
	Pool    = Setting{key: "pool", num: func(c *engine.Config) *int { return &c.PoolTokens }}
	// DecodePool is decode's pool: dpool, from link version 3.
	DecodePool = Setting{key: "dpool", num: func(c *engine.Config) *int { return &c.DecodePoolTokens }}
	PageSize   = Setting{key: "page", num: func(c *engine.Config) *int { return &c.PageTokens }}
	// ReservedDecode is decode's --num-reserved-decode-tokens: reserve,
	// from link version 4.
	ReservedDecode = Setting{key: "reserve", num: func(c *engine.Config) *int { return &c.ReservedDecodeTokens }}
	Mode           = Setting{key: "mode", choice: func(c *engine.Config) *string { return (*string)(&c.Mode) }}
	Allocator      = Setting{key: "alloc", choice: func(c *engine.Config) *string { return (*string)(&c.Allocator) }}
	Cancel         = Setting{key: "cancel", choice: func(c *engine.Config) *string { return (*string)(&c.Cancel) }}
	Scrub          = Setting{key: "scrub", flag: func(c *engine.Config) *bool { return &c.ScrubOnFree }}
	Door           = Setting{key: "door", optional: true, zero: engine.DoorFromMode, choice: func(c *engine.Config) *string { return &c.Door }}
	WriterCheck    = Setting{key: "wcheck", optional: true, zero: "0", flag: func(c *engine.Config) *bool { return &c.CheckWriter }}
	Gateway        = Setting{key: "gw", optional: true, zero: string(engine.GatewayOff), choice: func(c *engine.Config) *string { return (*string)(&c.Gateway) }}
)

// Settings are the settings in the order a link writes them.
var Settings = []Setting{Context, Pool, DecodePool, PageSize, ReservedDecode, Mode, Allocator, Cancel, Scrub, Door, WriterCheck, Gateway}

// Key is the setting's key in a link ("" for none).
func (s Setting) Key() string { return s.key }

// settingByKey finds a setting by its key.
func settingByKey(key string) (Setting, bool) {
	for _, s := range Settings {
		if s.key == key {
			return s, true
		}
	}
	return Setting{}, false
}

// Int is where a number setting lives in c; nil for another kind.
func (s Setting) Int(c *engine.Config) *int {
	if s.num == nil {
		return nil
	}
	return s.num(c)
}

// Flag is where an on/off setting lives in c; nil for another kind.
func (s Setting) Flag(c *engine.Config) *bool {
	if s.flag == nil {
		return nil
	}
	return s.flag(c)
}

// IsChoice reports whether the setting is one of a list of options.
func (s Setting) IsChoice() bool { return s.choice != nil }

// SetChoice stores a choice setting's value; the default's value is stored
// as the empty string the engine reads it as, so a run compares equal
// however it was set.
func (s Setting) SetChoice(c *engine.Config, val string) {
	if val == s.zero {
		val = ""
	}
	*s.choice(c) = val
}

// Value is the setting's value in c as a link writes it.
func (s Setting) Value(c engine.Config) string {
	switch {
	case s.num != nil:
		return fmt.Sprint(*s.num(&c))
	case s.choice != nil:
		if v := *s.choice(&c); v != "" {
			return v
		}
		return s.zero
	case s.flag != nil:
		if *s.flag(&c) {
			return "1"
		}
		return "0"
	}
	return ""
}

// set writes a link's value of the setting into c. Numbers are the link's
// plain integers (the page's form parses its friendlier text first); the
// result is checked by Config.Validate, not here.
func (s Setting) set(c *engine.Config, val string) error {
	switch {
	case s.num != nil:
		n, err := linkInt(val)
		if err != nil {
			return err
		}
		*s.num(c) = n
	case s.choice != nil:
		s.SetChoice(c, val)
	case s.flag != nil:
		if val != "0" && val != "1" {
			return fmt.Errorf("must be 0 or 1")
		}
		*s.flag(c) = val == "1"
	}
	return nil
}

// inLink reports whether a link writes the setting: always, unless it has
// a default and is at it.
func (s Setting) inLink(c engine.Config) bool {
	return !s.optional || s.Value(c) != s.zero
}
