package deploycheck

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"kvleak/engine"
)

// MaxInputBytes bounds what one box reads. A /server_info of a server
// with many data-parallel ranks is a few hundred kilobytes at most (each
// rank repeats the server args); a larger paste is something else.
const MaxInputBytes = 512 << 10

// Source says what a server's numbers were read from.
type Source string

const (
	FromServerInfo Source = "GET /server_info"
	FromLaunch     Source = "launch command"
)

// serverInfo names the endpoint in messages: /server_info, and the name it
// had before (http_server.py keeps /get_server_info as a deprecated alias
// that returns the same JSON).
const serverInfo = "GET /server_info (or /get_server_info)"

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
	// PageTokens page_size. ContextTokens is 0 when the text does not say
	// (context_length null, no --context-length): Check takes the peer's.
	ContextTokens int
	PoolTokens    int
	PageTokens    int
	// ReportedMaxReqInputLen is the server's own max_req_input_len (the
	// scheduler's get_init_info, merged into /server_info's top level); 0
	// when the text has none. It wins over the engine's rule (Limits).
	ReportedMaxReqInputLen int
	// ReservedDecodeTokens is num_reserved_decode_tokens, what a decode
	// server's DecodePreallocQueue holds back per request beyond its
	// prompt, when the text says it (ReservedSaid); ReservedDecode is the
	// value the server runs with.
	ReservedDecodeTokens int
	ReservedSaid         bool

	// What was not read but assumed or worked out; the verdict says so.
	PoolIsCap       bool   // PoolTokens is --max-total-tokens, an upper bound
	ContextDerived  bool   // context_length was null: max_req_input_len + 6
	ContextFromPeer bool   // context_length was not given: the peer server's
	LauncherAssumed bool   // an args list without a launcher: read as sglang.launch_server's flags
	PageAssumed     bool   // no page size: SGLang's default, 1
	BackendAssumed  bool   // no backend: SGLang's default, mooncake
	ModeAssumed     bool   // no disaggregation mode: SGLang's default, null
	VersionFrom     string // where Version was read, when not a "version" key
	ImageTag        string // an image tag that names no version ("latest")

	names fieldNames // how the text names each value, for messages
}

// fieldNames are a source's names for the values a Server holds.
type fieldNames struct {
	context, pool, page, mode, backend, version, reserve string
}

var (
	serverInfoNames = fieldNames{"context_length", "max_total_num_tokens", "page_size", "disaggregation_mode", "disaggregation_transfer_backend", "version", "num_reserved_decode_tokens"}
	launchNames     = fieldNames{"--context-length", "--max-total-tokens", "--page-size", "--disaggregation-mode", "--disaggregation-transfer-backend", "the image tag", flagReserve}
)

// DefaultReservedDecodeTokens is ServerArgs.num_reserved_decode_tokens'
// default (server_args.py).
const DefaultReservedDecodeTokens = 512

// ReservedDecode is the server's num_reserved_decode_tokens: as the text
// says it, else SGLang's default.
func (s Server) ReservedDecode() int {
	if !s.ReservedSaid {
		return DefaultReservedDecodeTokens
	}
	return s.ReservedDecodeTokens
}

// RuleLimits is what the engine's limit code derives from the server's
// numbers: max_req_input_len = min(context − 1, max_total_num_tokens − 1) − 5.
func (s Server) RuleLimits() engine.Limits {
	return engine.NewLimits(s.ContextTokens, s.PoolTokens, s.PageTokens)
}

// Limits is what the server's validate_input_length compares against: the
// max_req_input_len it reports, when it reports one, over the engine's rule.
// SGLang's TpModelWorker.__init__ (managers/tp_worker.py) bounds max_req_len
// by the model runner's max_token_pool_size, not by max_total_num_tokens:
// for a hybrid sliding-window model that is the full-attention pool
// (ModelRunner.max_token_pool_size; sgl-project/sglang#22597), so the two
// can differ. /server_info does not carry max_token_pool_size; it is read
// back from the report (TokenPoolSize).
func (s Server) Limits() engine.Limits {
	rule := s.RuleLimits()
	if !s.ReportDiffers() {
		return rule
	}
	return engine.Limits{ContextTokens: s.ContextTokens, PoolTokens: s.TokenPoolSize()}
}

// ReportDiffers says whether the server reports a max_req_input_len other
// than the engine's rule gives.
func (s Server) ReportDiffers() bool {
	r := s.ReportedMaxReqInputLen
	return r != 0 && s.ContextTokens > 0 && r != s.RuleLimits().MaxReqInputLen()
}

// TokenPoolSize is max_token_pool_size as the reported max_req_input_len
// gives it back: the limit + 6 when the pool bounds it, the context when the
// context does (the pool is then at least that).
func (s Server) TokenPoolSize() int {
	return min(s.ReportedMaxReqInputLen+reqInputHeadroom+1, s.ContextTokens)
}

// PoolBoundsReport says whether the reported limit is the pool's, not the
// context's.
func (s Server) PoolBoundsReport() bool {
	return s.ReportedMaxReqInputLen+reqInputHeadroom+1 < s.ContextTokens
}

// reqInputHeadroom is the 5 tokens max_req_input_len keeps below
// max_req_len (tp_worker.py).
const reqInputHeadroom = 5

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

// Parse reads what one server reports: the JSON of its GET /server_info
// (/get_server_info before the rename), its launch command line, or its
// Kubernetes container's command and args lists. The error, if any, is an
// *InputError.
func Parse(text string) (Server, error) {
	if len(text) > MaxInputBytes {
		return Server{}, inputErr("", "the text is longer than %s bytes: paste one server's %s or its launch command", engine.Thousands(MaxInputBytes), serverInfo)
	}
	if !utf8.ValidString(text) {
		return Server{}, inputErr("", "the text is not UTF-8: paste one server's %s or its launch command", serverInfo)
	}
	t := strings.TrimSpace(text)
	var (
		s   Server
		err error
	)
	switch {
	case t == "":
		return Server{}, inputErr("", "nothing is pasted: paste the server's %s or its launch command", serverInfo)
	case t[0] == '[':
		s, err = parseArgList(t)
	case hasK8sKeys(t):
		s, err = parseK8s(t)
	case t[0] == '{':
		s, err = parseServerInfo(t)
	case strings.ContainsRune(`"-0123456789`, rune(t[0])) || t == "true" || t == "false" || t == "null":
		return Server{}, inputErr("", "the text is not a JSON object: %s answers with an object, {\"version\": …, \"context_length\": …, …}", serverInfo)
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
// (tp_worker.py asserts it: "Memory pool size is too small"). A context
// not yet known is checked once Check has taken the peer's (checkLimits).
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
	if err := checkRange(n.pool, s.PoolTokens, 1, engine.MaxPoolTokens); err != nil {
		return err
	}
	if err := checkRange(n.page, s.PageTokens, 1, min(engine.MaxPageTokens, s.PoolTokens)); err != nil {
		err.Msg += " (at most the pool)"
		return err
	}
	if err := checkRange(n.reserve, s.ReservedDecodeTokens, 0, engine.MaxContextTokens); err != nil {
		return err
	}
	if s.ContextTokens == 0 {
		return nil
	}
	return s.checkLimits()
}

// checkLimits holds a server whose context is known to SGLang's rule: a
// context the engine can hold, a reported max_req_input_len the rule can
// give (at most context − 6), and a limit of at least 1.
func (s Server) checkLimits() error {
	n := s.names
	if err := checkRange(n.context, s.ContextTokens, 1, engine.MaxContextTokens); err != nil {
		if s.ContextFromPeer {
			err.Msg += " (taken from the other server)"
		}
		return err
	}
	if r := s.ReportedMaxReqInputLen; r != 0 && r > s.ContextTokens-reqInputHeadroom-1 {
		from := fmt.Sprintf("%s %s", n.context, engine.Thousands(int64(s.ContextTokens)))
		if s.ContextFromPeer {
			from = fmt.Sprintf("the other server's context length, %s", engine.Thousands(int64(s.ContextTokens)))
		}
		return inputErr("max_req_input_len", "max_req_input_len %s is more than %s − 6: SGLang's max_req_input_len = min(context − 1, max_token_pool_size − 1) − 5 cannot give it (tp_worker.py); paste the JSON of one server, or add its own context_length", engine.Thousands(int64(r)), from)
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
