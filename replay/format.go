package replay

import (
	"strings"
	"time"
)

// Format is a kind of request log.
type Format int

const (
	FormatJSONL    Format = iota + 1 // ours: {"t": seconds, "tenant": "A", "prompt_tokens": N, "output_tokens": N}
	FormatCSV                        // ours: t,tenant,prompt_tokens,output_tokens
	FormatMooncake                   // Mooncake's JSONL: timestamp (ms), input_length, output_length, hash_ids
	FormatAzure                      // Azure's LLM inference trace: TIMESTAMP,ContextTokens,GeneratedTokens
)

func (f Format) String() string {
	switch f {
	case FormatJSONL:
		return "kvleak JSONL"
	case FormatCSV:
		return "kvleak CSV"
	case FormatMooncake:
		return "Mooncake trace (JSONL)"
	case FormatAzure:
		return "Azure LLM inference trace (CSV)"
	}
	return "unknown"
}

// schema names a format's fields. A log in our formats may leave the tenant
// and the session out; the traces have neither.
type schema struct {
	format                                Format
	time, tenant, prompt, output, session string
	unit                                  time.Duration // of the time; 0: a datetime, counted from the first request
}

var (
	ourJSONL = schema{FormatJSONL, "t", "tenant", "prompt_tokens", "output_tokens", "session", time.Second}
	ourCSV   = schema{FormatCSV, "t", "tenant", "prompt_tokens", "output_tokens", "session", time.Second}
	mooncake = schema{FormatMooncake, "timestamp", "", "input_length", "output_length", "", time.Millisecond}
	azure    = schema{FormatAzure, "TIMESTAMP", "", "ContextTokens", "GeneratedTokens", "", 0}
)

// required are the fields every line must have.
func (s schema) required() []string { return []string{s.time, s.prompt, s.output} }

// known says whether name is one of the schema's fields.
func (s schema) known(name string) bool {
	return name != "" && (name == s.time || name == s.tenant || name == s.prompt || name == s.output || name == s.session)
}

// record is one good line, before the reader checks its order and names
// its tenant.
type record struct {
	at             time.Duration // since the log's origin
	timeText       string        // as the line wrote it
	tenant         string        // "" when the line names none
	session        string        // "" when the line names none
	prompt, output int
}

// value is a field as a line holds it.
type value struct {
	text   string
	quoted bool // a JSON string (a CSV cell counts as one)
}

// clock turns datetimes into times since the first good request.
type clock struct {
	origin time.Time
	set    bool
}

// build checks a line's fields; get returns a field's value and whether the
// line has it.
func (s schema) build(get func(name string) (value, bool), c *clock) (record, error) {
	var r record
	for _, name := range s.required() {
		if _, ok := get(name); !ok {
			return r, badField(name, "is missing")
		}
	}
	var err error
	t, _ := get(s.time)
	r.timeText = t.text
	var at time.Time
	if s.unit == 0 {
		at, err = datetime(s.time, t.text)
	} else {
		r.at, err = duration(s.time, t.text, s.unit)
	}
	if err != nil {
		return r, err
	}
	if v, ok := get(s.tenant); ok && s.tenant != "" && v.text != "" { // an empty one is none
		if !v.quoted {
			return r, badField(s.tenant, "%s is not text in quotes", shown(v.text))
		}
		if err := checkTenant(v.text); err != nil {
			return r, err
		}
		r.tenant = v.text
	}
	if v, ok := get(s.session); ok && s.session != "" && v.text != "" && (v.quoted || v.text != "null") {
		if !v.quoted && !strings.ContainsAny(v.text[:1], "-0123456789") { // a number is a session too
			return r, badField(s.session, "%s is neither text in quotes nor a number", shown(v.text))
		}
		if err := checkSession(v.text); err != nil {
			return r, err
		}
		r.session = v.text
	}
	p, _ := get(s.prompt)
	if r.prompt, err = tokens(s.prompt, p.text, 1, MaxPromptTokens); err != nil {
		return r, err
	}
	o, _ := get(s.output)
	if r.output, err = tokens(s.output, o.text, 0, MaxOutputTokens); err != nil {
		return r, err
	}
	if s.unit == 0 {
		if !c.set {
			c.origin, c.set = at, true
		}
		r.at = at.Sub(c.origin)
		if r.at > MaxSeconds*time.Second {
			return r, badField(s.time, "%s is more than %s seconds after the first request", shown(t.text), thousands(MaxSeconds))
		}
	}
	return r, nil
}
