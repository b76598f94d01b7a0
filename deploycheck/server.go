package deploycheck

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"kvleak/engine"
)

// MaxInputBytes bounds what one box reads. A /get_server_info of a server
// with many data-parallel ranks is a few hundred kilobytes at most (each
// rank repeats the server args); a larger paste is something else.
const MaxInputBytes = 512 << 10

// Source says what a server's numbers were read from.
type Source string

const (
	FromServerInfo Source = "GET /get_server_info"
	FromLaunch     Source = "launch command"
)

// The values of disaggregation_mode (server_args.py).
const (
	ModePrefill = "prefill"
	ModeDecode  = "decode"
	ModeNull    = "null" // not disaggregated: one server does both
)

// Server is what one SGLang server reports, in SGLang's terms.
type Server struct {
	Source Source
	// Mode is disaggregation_mode; Backend is
	// disaggregation_transfer_backend.
	Mode    string
	Backend string
	// Version is SGLang's release ("0.5.20"); "" when the text does not say.
	Version string
	// ContextTokens is context_length, PoolTokens max_total_num_tokens and
	// PageTokens page_size.
	ContextTokens int
	PoolTokens    int
	PageTokens    int
	// ReportedMaxReqInputLen is the server's own max_req_input_len; 0 when
	// the text has none.
	ReportedMaxReqInputLen int

	// What was not read but assumed or worked out; the verdict says so.
	PoolIsCap      bool   // PoolTokens is --max-total-tokens, an upper bound
	ContextDerived bool   // context_length was null: max_req_input_len + 6
	PageAssumed    bool   // no page size: SGLang's default, 1
	BackendAssumed bool   // no backend: SGLang's default, mooncake
	ModeAssumed    bool   // no disaggregation mode: SGLang's default, null
	VersionFrom    string // where Version was read, when not a "version" key
	ImageTag       string // an image tag that names no version ("latest")

	names fieldNames // how the text names each value, for messages
}

// fieldNames are a source's names for the values a Server holds.
type fieldNames struct {
	context, pool, page, mode, backend, version string
}

var (
	serverInfoNames = fieldNames{"context_length", "max_total_num_tokens", "page_size", "disaggregation_mode", "disaggregation_transfer_backend", "version"}
	launchNames     = fieldNames{"--context-length", "--max-total-tokens", "--page-size", "--disaggregation-mode", "--disaggregation-transfer-backend", "the image tag"}
)

// Limits is what the server's validate_input_length derives from its
// numbers: the engine's own limit code.
func (s Server) Limits() engine.Limits {
	return engine.NewLimits(s.ContextTokens, s.PoolTokens, s.PageTokens)
}

// InputError says what is wrong with a box's text, naming the field as the
// text names it. Nothing is checked while any box has one.
type InputError struct {
	Box   string // "prefill" or "decode"; "" when no box is known
	Field string // "max_total_num_tokens", "--page-size", "version"…; "" for the text as a whole
	Msg   string // a sentence that names the field
}

func (e *InputError) Error() string {
	if e.Box == "" {
		return e.Msg
	}
	return "the " + e.Box + " server: " + e.Msg
}

func inputErr(field, format string, args ...any) *InputError {
	return &InputError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Parse reads what one server reports: the JSON of its GET
// /get_server_info, or its launch command line. The error, if any, is an
// *InputError.
func Parse(text string) (Server, error) {
	if len(text) > MaxInputBytes {
		return Server{}, inputErr("", "the text is longer than %s bytes: paste one server's GET /get_server_info or its launch command", engine.Thousands(MaxInputBytes))
	}
	if !utf8.ValidString(text) {
		return Server{}, inputErr("", "the text is not UTF-8: paste one server's GET /get_server_info or its launch command")
	}
	t := strings.TrimSpace(text)
	var (
		s   Server
		err error
	)
	switch {
	case t == "":
		return Server{}, inputErr("", "nothing is pasted: paste the server's GET /get_server_info or its launch command")
	case t[0] == '{':
		s, err = parseServerInfo(t)
	case strings.ContainsRune(`["-0123456789`, rune(t[0])) || t == "true" || t == "false" || t == "null":
		return Server{}, inputErr("", "the text is not a JSON object: GET /get_server_info answers with an object, {\"version\": …, \"context_length\": …, …}")
	default:
		s, err = parseLaunch(t)
	}
	if err != nil {
		return Server{}, err
	}
	if err := s.check(); err != nil {
		return Server{}, err
	}
	return s, nil
}

// check holds the values to what SGLang starts with and the playground
// simulates: the engine's bounds, and a max_req_input_len of at least 1
// (tp_worker.py asserts it: "Memory pool size is too small").
func (s Server) check() error {
	n := s.names
	switch s.Mode {
	case ModePrefill, ModeDecode, ModeNull:
	default:
		return inputErr(n.mode, "%s %q: SGLang's modes are %q, %q and %q", n.mode, clip(s.Mode), ModePrefill, ModeDecode, ModeNull)
	}
	if err := checkName(n.backend, s.Backend); err != nil {
		return err
	}
	if s.Version != "" {
		if _, ok := parseVersion(s.Version); !ok {
			return inputErr(n.version, "%s %q: not an SGLang release such as 0.5.21 or 0.5.21.post1", n.version, clip(s.Version))
		}
	}
	if err := checkRange(n.context, s.ContextTokens, 1, engine.MaxContextTokens); err != nil {
		return err
	}
	if err := checkRange(n.pool, s.PoolTokens, 1, engine.MaxPoolTokens); err != nil {
		return err
	}
	if err := checkRange(n.page, s.PageTokens, 1, min(engine.MaxPageTokens, s.PoolTokens)); err != nil {
		err.Msg += " (at most the pool)"
		return err
	}
	if l := s.Limits(); l.MaxReqInputLen() < 1 {
		field, v := n.pool, s.PoolTokens
		if s.ContextTokens <= l.PoolTokens {
			field, v = n.context, s.ContextTokens
		}
		return inputErr(field, "%s %s: max_req_input_len would be %s = %s, and SGLang does not start (\"Memory pool size is too small\")", field, engine.Thousands(int64(v)), engine.Thousands(int64(l.MaxReqInputLen())), l.Words())
	}
	return nil
}

func checkRange(field string, v, lo, hi int) *InputError {
	if v < lo || v > hi {
		return inputErr(field, "%s %s: must be between %s and %s tokens", field, engine.Thousands(int64(v)), engine.Thousands(int64(lo)), engine.Thousands(int64(hi)))
	}
	return nil
}

// checkName accepts a short printable name, as SGLang's choices are.
func checkName(field, v string) error {
	if v == "" || utf8.RuneCountInString(v) > 40 || strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) {
		return inputErr(field, "%s %q: not a name SGLang takes", field, clip(v))
	}
	return nil
}

// clip shortens pasted text before a message shows it.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
