package deploycheck

import (
	"errors"
	"strings"

	"kvleak/engine"
	"kvleak/internal/jsonlite"
)

// report is one level of /server_info's JSON (the same as /get_server_info,
// its deprecated alias): the top level (server args, scheduler info,
// version) or one of its internal_states (one per data-parallel rank). The keys are SGLang's (see the package comment);
// every other key is checked as JSON and skipped.
type report struct {
	Version           *string      `json:"version"`
	ContextLength     *int         `json:"context_length"`
	PageSize          *int         `json:"page_size"`
	MaxTotalTokens    *int         `json:"max_total_tokens"`
	Mode              *string      `json:"disaggregation_mode"`
	Backend           *string      `json:"disaggregation_transfer_backend"`
	MaxTotalNumTokens *int         `json:"max_total_num_tokens"`
	MaxReqInputLen    *int         `json:"max_req_input_len"`
	ReservedDecode    *int         `json:"num_reserved_decode_tokens"`
	MemoryUsage       *memoryUsage `json:"memory_usage"`
	InternalStates    []report     `json:"internal_states"`
	// Read only to say what else was pasted: the router's (mini_lb)
	// /get_server_info lists its servers; /model_info (/get_model_info)
	// has is_generation.
	Prefill      []struct{} `json:"prefill"`
	Decode       []struct{} `json:"decode"`
	IsGeneration *bool      `json:"is_generation"`
}

// memoryUsage is an internal state's memory_usage, of which only
// token_capacity is read: max_total_num_tokens as get_internal_state
// reports it.
type memoryUsage struct {
	TokenCapacity *int `json:"token_capacity"`
}

func (r report) tokenCapacity() *int {
	if r.MemoryUsage == nil {
		return nil
	}
	return r.MemoryUsage.TokenCapacity
}

// field is a value found in the JSON and where.
type field[T any] struct {
	v    *T
	name string
}

// first is the first of fs that the JSON holds.
func first[T any](fs ...field[T]) (T, string, bool) {
	for _, f := range fs {
		if f.v != nil {
			return *f.v, f.name, true
		}
	}
	var zero T
	return zero, "", false
}

// ourKeys are the keys a JSON of this shape has at its top level.
const ourKeys = "version, context_length, page_size, disaggregation_mode, disaggregation_transfer_backend, max_total_num_tokens"

func parseServerInfo(text string) (Server, error) {
	var r report
	if err := jsonlite.Unmarshal([]byte(text), &r); err != nil {
		return Server{}, jsonErr(err)
	}
	var st report // internal_states[0], where recent releases repeat the server args
	if len(r.InternalStates) > 0 {
		st = r.InternalStates[0]
	}
	s := Server{Source: FromServerInfo, names: serverInfoNames}
	const is0 = "internal_states[0]."

	pool, poolName, hasPool := first(
		field[int]{r.MaxTotalNumTokens, "max_total_num_tokens"},
		field[int]{st.MaxTotalNumTokens, is0 + "max_total_num_tokens"},
		field[int]{st.tokenCapacity(), is0 + "memory_usage.token_capacity"},
		field[int]{r.MaxTotalTokens, "max_total_tokens"},
		field[int]{st.MaxTotalTokens, is0 + "max_total_tokens"},
	)
	mode, modeName, hasMode := first(field[string]{r.Mode, "disaggregation_mode"}, field[string]{st.Mode, is0 + "disaggregation_mode"})
	backend, backendName, hasBackend := first(field[string]{r.Backend, "disaggregation_transfer_backend"}, field[string]{st.Backend, is0 + "disaggregation_transfer_backend"})
	page, pageName, hasPage := first(field[int]{r.PageSize, "page_size"}, field[int]{st.PageSize, is0 + "page_size"})
	ctx, ctxName, hasCtx := first(field[int]{r.ContextLength, "context_length"}, field[int]{st.ContextLength, is0 + "context_length"})
	// max_req_input_len is scheduler_info's (Scheduler.get_init_info),
	// which get_server_info merges into the top level; internal_states[0]
	// (Scheduler.get_internal_state) does not carry it, but is read too in
	// case a release moves it.
	mril, _, hasMril := first(field[int]{r.MaxReqInputLen, "max_req_input_len"}, field[int]{st.MaxReqInputLen, is0 + "max_req_input_len"})

	switch {
	case !hasPool && (r.Prefill != nil || r.Decode != nil):
		return s, inputErr("", `this is the router's server info: it lists its servers under "prefill" and "decode"; paste one of its "prefill" entries in the prefill box and one of its "decode" entries in the decode box`)
	case !hasPool && !hasMode && r.IsGeneration != nil:
		return s, inputErr("", "this is GET /model_info (or /get_model_info): paste what the server answers at %s", serverInfo)
	case !hasPool && !hasMode && !hasBackend && !hasPage && !hasCtx && r.Version == nil:
		return s, inputErr("", "the JSON has none of %s: paste what the server answers at %s", ourKeys, serverInfo)
	case !hasPool:
		return s, inputErr("max_total_num_tokens", "max_total_num_tokens is missing: it is the KV pool the server built (scheduler_info, or internal_states[0].memory_usage.token_capacity)")
	case !hasMode:
		return s, inputErr("disaggregation_mode", "disaggregation_mode is missing: it says whether the server is prefill, decode or neither (null)")
	case !hasPage:
		return s, inputErr("page_size", "page_size is missing or null: it is the tokens per KV page")
	}
	if !hasBackend {
		backend, s.BackendAssumed = "mooncake", true
	}
	if strings.HasSuffix(poolName, "max_total_tokens") {
		s.PoolIsCap = true
	}
	if hasCtx && ctx == 0 { // 0 is the Server's "not said"; the JSON said it
		return s, checkRange(ctxName, ctx, 1, engine.MaxContextTokens)
	}
	if !hasCtx && hasMril && mril+reqInputHeadroom+1 < pool {
		// context_length null means the model's own config.json; the
		// scheduler's max_req_input_len = min(context − 1, pool − 1) − 5
		// gives it back when the context is the smaller. Otherwise it stays
		// 0, and Check takes the other server's.
		ctx, s.ContextDerived = mril+reqInputHeadroom+1, true
	}
	s.Mode, s.Backend, s.PageTokens, s.PoolTokens, s.ContextTokens = mode, backend, page, pool, ctx
	if v, name, ok := first(field[int]{r.ReservedDecode, "num_reserved_decode_tokens"}, field[int]{st.ReservedDecode, is0 + "num_reserved_decode_tokens"}); ok {
		s.ReservedDecodeTokens, s.ReservedSaid, s.names.reserve = v, true, name
	}
	if hasMril {
		if err := checkRange("max_req_input_len", mril, 1, engine.MaxContextTokens-reqInputHeadroom-1); err != nil {
			return s, err
		}
		s.ReportedMaxReqInputLen = mril
	}
	if r.Version != nil {
		s.Version = *r.Version
		if s.Version == "" {
			return s, inputErr("version", "version is empty: it is SGLang's release, such as 0.5.21")
		}
	}
	s.names.pool, s.names.mode, s.names.backend, s.names.page = poolName, modeName, nameOr(backendName, "disaggregation_transfer_backend"), pageName
	if hasCtx {
		s.names.context = ctxName
	}
	return s, nil
}

func nameOr(name, dflt string) string {
	if name == "" {
		return dflt
	}
	return name
}

// jsonErr words jsonlite's error for the person who pasted the JSON.
func jsonErr(err error) error {
	var te *jsonlite.TypeError
	if !errors.As(err, &te) {
		return inputErr("", "the text starts with { but is not JSON: %v", err)
	}
	field := strings.Join(te.Path, ".")
	want := "a whole number of tokens"
	switch te.Type.Kind().String() {
	case "string":
		want = "a string"
	case "slice":
		want = "a list"
	case "struct":
		want = "an object"
	case "bool":
		want = "true or false"
	}
	if field == "" {
		return inputErr("", "the JSON is %s where %s answers with an object", te.Value, serverInfo)
	}
	return inputErr(field, "%s is %s: must be %s", field, te.Value, want)
}
