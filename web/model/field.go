package model

import (
	"fmt"

	"kvleak/engine"
	"kvleak/permalink"
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

// fieldSpec is a row of the field table. A setting's (setting.Key() !=
// "") key and place in engine.Config are the link's (permalink.Setting);
// the codec and the session share them.
type fieldSpec struct {
	id          string // DOM id
	setting     permalink.Setting
	label, hint string
	kind        Kind
	options     func() []Option
	// zeroOK: a number field that takes 0 (permalink.ParseCountOrZero).
	zeroOK bool
}

var fields = [fieldCount]fieldSpec{
	Context:    {id: "ctx", setting: permalink.Context, kind: KindNumber, label: "Context length (tokens)", hint: "Advertised context window"},
	Pool:       {id: "pool", setting: permalink.Pool, kind: KindNumber, label: "Prefill KV pool (tokens)", hint: "The prefill server's max_total_num_tokens"},
	DecodePool: {id: "decode-pool", setting: permalink.DecodePool, kind: KindNumber, label: "Decode KV pool (tokens)", hint: "The decode server's max_total_num_tokens"},
	PageSize:   {id: "page-size", setting: permalink.PageSize, kind: KindNumber, label: "Page size (tokens)", hint: "Tokens per KV page, on both servers"},
	ReservedDecode: {id: "reserved-decode", setting: permalink.ReservedDecode, kind: KindNumber, label: "Decode's reserved tokens", zeroOK: true,
		hint: "SGLang's --num-reserved-decode-tokens: decode's DecodePreallocQueue preallocates a request only while its prompt plus this many tokens (and this many for each request already active) fit its free pages; otherwise the request waits. SGLang's default is 512; the demo's 32 is this page's choice, as a 10-page pool cannot hold 512."},
	Mode:      {id: "mode", setting: permalink.Mode, kind: KindChoice, label: "Admission mode", options: modeOptions},
	Allocator: {id: "allocator", setting: permalink.Allocator, kind: KindChoice, label: "Free-page allocator", options: allocatorOptions},
	Cancel: {id: "cancel", setting: permalink.Cancel, kind: KindChoice, label: "Router on client abort",
		options: func() []Option {
			return []Option{{string(engine.CancelBoth), "cancel both halves"}, {string(engine.CancelOneHalf), "cancel only the half that saw it"}}
		}},
	Scrub: {id: "scrub", setting: permalink.Scrub, kind: KindFlag, label: "Scrub pages on free (one write per freed page)",
		hint: "The simulation's defence, priced at its own 70,272 bytes of KV per token (an assumption: the postmortem gives none)"},
	Door:         {id: "door", setting: permalink.Door, kind: KindSet, label: "What the door retires", options: doorOptions},
	WriterCheck:  {id: "writer-check", setting: permalink.WriterCheck, kind: KindFlag, label: "Decode checks each page's last writer (one metadata read per page)"},
	Gateway:      {id: "gateway", setting: permalink.Gateway, kind: KindChoice, label: "AI gateway in front", options: gatewayOptions},
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
func (f Field) Key() string { return f.spec().setting.Key() }

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

// value is a setting's value in c as the permalink writes it.
func (f Field) value(c engine.Config) string { return f.spec().setting.Value(c) }

// display is a setting's value in c as the form shows it.
func (f Field) display(c engine.Config) string {
	if n := f.spec().setting.Int(&c); n != nil {
		return engine.Thousands(int64(*n))
	}
	return f.value(c)
}
