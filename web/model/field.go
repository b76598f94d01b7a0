package model

import (
	"fmt"

	"kvleak/engine"
)

// Field is one input of the playground: an engine setting or a part of the
// request form. Its DOM id, URL key, label and bounds all come from the one
// table below, so adding a setting is one row.
type Field int

// The engine settings, in the order the form shows them, then the request
// form's fields.
const (
	Context Field = iota
	Pool
	DecodePool
	PageSize
	ReservedDecode
	Mode
	Allocator
	Cancel
	Scrub
	Door
	WriterCheck
	Gateway
	PromptTokens
	Secret
	Tenant
	TenantName
	EndEarly
	MaxNew
	fieldCount
)

// Kind is how a field is entered.
type Kind int

const (
	kindNone   Kind = iota // not a field
	KindNumber             // a count typed as text ("681,280", "1Mi")
	KindChoice             // one of a list of options
	KindFlag               // on or off
	KindText               // free text
	KindSet                // a set of options, each on or off (a fieldset of checkboxes)
)

// Option is one choice of a KindChoice field.
type Option struct{ Value, Label string }

// fieldSpec is a row of the field table. A setting (key != "") reads and
// writes its part of engine.Config; the codec and the session share it.
type fieldSpec struct {
	id, key     string // DOM id; URL key (settings only)
	label, hint string
	kind        Kind
	options     func() []Option
	num         func(*engine.Config) *int
	choice      func(*engine.Config) *string
	flag        func(*engine.Config) *bool
	// An optional setting is left out of a link while at its default,
	// zero, so links made before it existed read the same.
	optional bool
	zero     string
	// zeroOK: a number field that takes 0 (ParseCountOrZero).
	zeroOK bool
}

var fields = [fieldCount]fieldSpec{
	Context: {id: "ctx", key: "ctx", kind: KindNumber, label: "Context length (tokens)", hint: "Advertised context window",
		num: func(c *engine.Config) *int { return &c.ContextTokens }},
	Pool: {id: "pool", key: "pool", kind: KindNumber, label: "Prefill KV pool (tokens)", hint: "The prefill server's max_total_num_tokens",
		num: func(c *engine.Config) *int { return &c.PoolTokens }},
	DecodePool: {id: "decode-pool", key: "dpool", kind: KindNumber, label: "Decode KV pool (tokens)", hint: "The decode server's max_total_num_tokens",
		num: func(c *engine.Config) *int { return &c.DecodePoolTokens }},
	PageSize: {id: "page-size", key: "page", kind: KindNumber, label: "Page size (tokens)", hint: "Tokens per KV page, on both servers",
		num: func(c *engine.Config) *int { return &c.PageTokens }},
	ReservedDecode: {id: "reserved-decode", key: "reserve", kind: KindNumber, label: "Decode's reserved tokens", zeroOK: true,
		hint: "SGLang's --num-reserved-decode-tokens: decode's DecodePreallocQueue preallocates a request only while its prompt plus this many tokens (and this many for each request already active) fit its free pages; otherwise the request waits. SGLang's default is 512; the demo's 32 is this page's choice, as a 10-page pool cannot hold 512.",
		num:  func(c *engine.Config) *int { return &c.ReservedDecodeTokens }},
	Mode: {id: "mode", key: "mode", kind: KindChoice, label: "Admission mode", options: modeOptions,
		choice: func(c *engine.Config) *string { return (*string)(&c.Mode) }},
	Allocator: {id: "allocator", key: "alloc", kind: KindChoice, label: "Free-page allocator", options: allocatorOptions,
		choice: func(c *engine.Config) *string { return (*string)(&c.Allocator) }},
	Cancel: {id: "cancel", key: "cancel", kind: KindChoice, label: "Router on client abort",
		options: func() []Option {
			return []Option{{string(engine.CancelBoth), "cancel both halves"}, {string(engine.CancelOneHalf), "cancel only the half that saw it"}}
		},
		choice: func(c *engine.Config) *string { return (*string)(&c.Cancel) }},
	Scrub: {id: "scrub", key: "scrub", kind: KindFlag, label: "Scrub pages on free (one write per freed page)",
		hint: "The simulation's defence, priced at its own 70,272 bytes of KV per token (an assumption: the postmortem gives none)",
		flag: func(c *engine.Config) *bool { return &c.ScrubOnFree }},
	Door: {id: "door", key: "door", kind: KindSet, label: "What the door retires", options: doorOptions, optional: true, zero: engine.DoorFromMode,
		choice: func(c *engine.Config) *string { return &c.Door }},
	WriterCheck: {id: "writer-check", key: "wcheck", kind: KindFlag, label: "Decode checks each page's last writer (one metadata read per page)", optional: true, zero: "0",
		flag: func(c *engine.Config) *bool { return &c.CheckWriter }},
	Gateway: {id: "gateway", key: "gw", kind: KindChoice, label: "AI gateway in front", options: gatewayOptions, optional: true, zero: string(engine.GatewayOff),
		choice: func(c *engine.Config) *string { return (*string)(&c.Gateway) }},
	PromptTokens: {id: "prompt-tokens", kind: KindNumber, label: "Prompt length (tokens)"},
	Secret:       {id: "secret", kind: KindText, label: "Content (what each KV page it writes holds)"},
	Tenant:       {id: "tenant", kind: KindChoice, label: "Tenant"},
	TenantName:   {id: "tenant-name", kind: KindText, label: "Rename the selected tenant"},
	EndEarly:     {id: "end-early", kind: KindChoice, label: "The request…"},
	MaxNew: {id: "max-new-tokens", kind: KindNumber, label: "max_new_tokens (empty: not sent)",
		hint: "Sent, the API refuses max_new_tokens + prompt above the context (_validate_one_request); not sent, SGLang's scheduler assumes its default, 128 (SamplingParams)."},
}

// Settings are the fields that configure the engine, in form order.
var Settings = []Field{Context, Pool, DecodePool, PageSize, ReservedDecode, Mode, Allocator, Cancel, Scrub, Door, WriterCheck, Gateway}

// ID is the field's DOM id, a stable hook for tests and docs.
func (f Field) ID() string { return f.spec().id }

// Key is the field's permalink key ("" for the request form's fields).
func (f Field) Key() string { return f.spec().key }

// Label is the field's visible label.
func (f Field) Label() string { return f.spec().label }

// Hint is the field's description under the input ("" for none).
func (f Field) Hint() string { return f.spec().hint }

// Kind is how the field is entered.
func (f Field) Kind() Kind { return f.spec().kind }

// Options are a setting's choices, in the order the form lists them.
func (f Field) Options() []Option {
	if o := f.spec().options; o != nil {
		return o()
	}
	return nil
}

func (f Field) String() string { return f.ID() }

func (f Field) spec() fieldSpec {
	if f < 0 || f >= fieldCount {
		return fieldSpec{id: fmt.Sprintf("field-%d", int(f))}
	}
	return fields[f]
}

// fieldByKey finds a setting by its permalink key.
func fieldByKey(key string) (Field, bool) {
	for _, f := range Settings {
		if f.Key() == key {
			return f, true
		}
	}
	return 0, false
}

// value is a setting's value in c as the permalink writes it.
func (f Field) value(c engine.Config) string {
	sp := f.spec()
	switch {
	case sp.num != nil:
		return fmt.Sprint(*sp.num(&c))
	case sp.choice != nil:
		if v := *sp.choice(&c); v != "" {
			return v
		}
		return sp.zero
	case sp.flag != nil:
		if *sp.flag(&c) {
			return "1"
		}
		return "0"
	}
	return ""
}

// display is a setting's value in c as the form shows it.
func (f Field) display(c engine.Config) string {
	if sp := f.spec(); sp.num != nil {
		return engine.Thousands(int64(*sp.num(&c)))
	}
	return f.value(c)
}

// set writes a setting's value into c. Numbers are the link's plain
// integers (the form parses its friendlier text first); the result is
// checked by Config.Validate, not here.
func (f Field) set(c *engine.Config, val string) error {
	sp := f.spec()
	switch {
	case sp.num != nil:
		n, err := linkInt(val)
		if err != nil {
			return err
		}
		*sp.num(c) = n
	case sp.choice != nil:
		sp.setChoice(c, val)
	case sp.flag != nil:
		if val != "0" && val != "1" {
			return fmt.Errorf("must be 0 or 1")
		}
		*sp.flag(c) = val == "1"
	default:
		return fmt.Errorf("%s is not a setting", f.ID())
	}
	return nil
}

// setChoice stores a choice; the default's value is stored as the empty
// string the engine reads it as, so a run compares equal however it was set.
func (sp fieldSpec) setChoice(c *engine.Config, val string) {
	if val == sp.zero {
		val = ""
	}
	*sp.choice(c) = val
}

// inLink reports whether a link writes the setting: always, unless it has
// a default and is at it.
func (f Field) inLink(c engine.Config) bool {
	sp := f.spec()
	return !sp.optional || f.value(c) != sp.zero
}
