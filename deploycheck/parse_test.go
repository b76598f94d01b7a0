package deploycheck

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// minimal is the six keys the issue names, with edits.
func minimal(role string, edits map[string]any) string {
	m := map[string]any{"version": "0.5.20", "context_length": 1_048_576, "page_size": 1,
		"disaggregation_mode": role, "disaggregation_transfer_backend": "mooncake", "max_total_num_tokens": 681_280}
	for k, v := range edits {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// null stands for JSON null in an edit (nil deletes the key).
type null struct{}

func (null) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// Each bad input is refused with a message that names its field.
func TestParseRefuses(t *testing.T) {
	for _, c := range []struct {
		name, text, field, msg string
	}{
		{"empty", "  \n", "", "nothing is pasted"},
		{"not JSON", `{"version": "0.5.20",`, "", "the text starts with { but is not JSON: unexpected end of JSON input"},
		{"not JSON either", `{version: 0.5.20}`, "", "is not JSON: invalid character 'v' at byte 2"},
		{"a JSON array of objects", `[{"max_total_num_tokens": 1}]`, "", "the text is a list of objects: GET /server_info (or /get_server_info) answers with one object"},
		{"a JSON string", `"0.5.20"`, "", "the text is not a JSON object"},
		{"JSON of another shape", `{"model": "glm", "choices": [], "usage": {"prompt_tokens": 1}}`, "", "the JSON has none of version, context_length, page_size, disaggregation_mode, disaggregation_transfer_backend, max_total_num_tokens"},
		{"/get_model_info", `{"model_path": "zai-org/GLM-5.3", "tokenizer_path": "zai-org/GLM-5.3", "is_generation": true, "preferred_sampling_params": null, "weight_version": "default"}`, "", "this is GET /model_info (or /get_model_info)"},
		{"the router's answer", `{"prefill": [{"version": "0.5.20"}], "decode": [{"version": "0.5.20"}]}`, "", "this is the router's server info"},
		{"missing pool", minimal("prefill", map[string]any{"max_total_num_tokens": nil}), "max_total_num_tokens", "max_total_num_tokens is missing"},
		{"missing mode", minimal("prefill", map[string]any{"disaggregation_mode": nil}), "disaggregation_mode", "disaggregation_mode is missing"},
		{"missing page", minimal("prefill", map[string]any{"page_size": nil}), "page_size", "page_size is missing or null"},
		{"string pool", minimal("prefill", map[string]any{"max_total_num_tokens": "681280"}), "max_total_num_tokens", "max_total_num_tokens is a string: must be a whole number of tokens"},
		{"fractional pool", minimal("prefill", map[string]any{"max_total_num_tokens": 681280.5}), "max_total_num_tokens", "max_total_num_tokens is the number 681280.5: must be a whole number of tokens"},
		{"exponent pool", `{"max_total_num_tokens": 1e6}`, "max_total_num_tokens", "max_total_num_tokens is the number 1e6: must be a whole number"},
		{"huge pool", `{"max_total_num_tokens": 99999999999999999999999}`, "max_total_num_tokens", "max_total_num_tokens is the number 99999999999999999999999"},
		{"numeric version", minimal("prefill", map[string]any{"version": 0.5}), "version", "version is the number 0.5: must be a string"},
		{"nested token_capacity", `{"internal_states": [{"memory_usage": {"token_capacity": "lots"}}]}`, "internal_states.memory_usage.token_capacity", "internal_states.memory_usage.token_capacity is a string"},
		{"internal_states not a list", `{"internal_states": {"max_total_num_tokens": 1}}`, "internal_states", "internal_states is an object: must be a list"},
		{"zero pool", minimal("prefill", map[string]any{"max_total_num_tokens": 0}), "max_total_num_tokens", "max_total_num_tokens 0: must be between 1 and 4,194,304 tokens"},
		{"negative pool", minimal("prefill", map[string]any{"max_total_num_tokens": -681280}), "max_total_num_tokens", "max_total_num_tokens -681,280: must be between 1 and 4,194,304 tokens"},
		{"absurd pool", minimal("prefill", map[string]any{"max_total_num_tokens": 1 << 40}), "max_total_num_tokens", "max_total_num_tokens 1,099,511,627,776: must be between 1 and 4,194,304 tokens"},
		{"absurd context", minimal("prefill", map[string]any{"context_length": 1 << 30}), "context_length", "context_length 1,073,741,824: must be between 1 and 16,777,216 tokens"},
		{"zero context", minimal("prefill", map[string]any{"context_length": 0}), "context_length", "context_length 0: must be between 1 and 16,777,216 tokens"},
		{"zero page", minimal("prefill", map[string]any{"page_size": 0}), "page_size", "page_size 0: must be between 1 and 65,536 tokens (at most the pool)"},
		{"page over the pool", minimal("prefill", map[string]any{"page_size": 64, "max_total_num_tokens": 32}), "page_size", "page_size 64: must be between 1 and 32 tokens (at most the pool)"},
		{"absurd page", minimal("prefill", map[string]any{"page_size": 1 << 20}), "page_size", "page_size 1,048,576: must be between 1 and 65,536 tokens"},
		{"pool too small to start", minimal("prefill", map[string]any{"max_total_num_tokens": 6}), "max_total_num_tokens", `max_total_num_tokens 6: max_req_input_len would be 0 = min(context 1,048,576 − 1, pool 6 − 1) − 5, and SGLang does not start ("Memory pool size is too small")`},
		{"context too small to start", minimal("prefill", map[string]any{"context_length": 3}), "context_length", "context_length 3: max_req_input_len would be -3"},
		{"unknown mode", minimal("encode", nil), "disaggregation_mode", `disaggregation_mode "encode": SGLang's modes are "prefill", "decode" and "null"`},
		{"unknown version", minimal("prefill", map[string]any{"version": "latest"}), "version", `version "latest": not an SGLang release such as 0.5.21`},
		{"empty version", minimal("prefill", map[string]any{"version": ""}), "version", "version is empty"},
		{"backend with spaces", minimal("prefill", map[string]any{"disaggregation_transfer_backend": "moon cake"}), "disaggregation_transfer_backend", `disaggregation_transfer_backend "moon cake": not a name SGLang takes`},
		{"hostile version", minimal("prefill", map[string]any{"version": "<script>alert(1)</script>" + strings.Repeat("x", 100)}), "version", `version "<script>alert(1)</script>xxxxxxxxxxxxxxx…": not an SGLang release`},
		{"a megabyte", strings.Repeat("x", 1<<20), "", "the text is longer than 524,288 bytes"},
		{"not UTF-8", "{\"version\": \"\xff\"}", "", "the text is not UTF-8"},
		{"prose", "my prefill server has 681280 tokens", "", "the text is neither JSON nor an SGLang launch command"},
		{"launch without pool", "python -m sglang.launch_server --context-length 1048576 --disaggregation-mode prefill", "--max-total-tokens", `--max-total-tokens is missing: without it the pool is what the GPUs' memory holds at start-up, which the command does not show. The running server says it: max_total_num_tokens in what it answers at GET /server_info (or /get_server_info) (paste that JSON instead), or in its start-up log line "max_total_num_tokens=…, chunked_prefill_size=…, max_prefill_tokens=…, max_running_requests=…, context_len=…"; add --max-total-tokens with that number`},
		{"launch without pool or context", "python -m sglang.launch_server --disaggregation-mode prefill", "--max-total-tokens", "add --max-total-tokens with that number. --context-length is missing too: the same line's context_len=… gives it"},
		{"launch zero context", "python -m sglang.launch_server --context-length 0 --max-total-tokens 681280", "--context-length", "--context-length 0: must be between 1 and 16,777,216 tokens"},
		{"reported limit zero", minimal("prefill", map[string]any{"max_req_input_len": 0}), "max_req_input_len", "max_req_input_len 0: must be between 1 and 16,777,210 tokens"},
		{"reported limit huge", minimal("prefill", map[string]any{"max_req_input_len": 1 << 40, "context_length": null{}}), "max_req_input_len", "max_req_input_len 1,099,511,627,776: must be between 1 and 16,777,210 tokens"},
		{"reported limit past the context", minimal("prefill", map[string]any{"max_req_input_len": 1_048_571}), "max_req_input_len", "max_req_input_len 1,048,571 is more than context_length 1,048,576 − 6: SGLang's max_req_input_len = min(context − 1, max_token_pool_size − 1) − 5 cannot give it"},
		{"launch flag without value", "python -m sglang.launch_server --context-length 1048576 --max-total-tokens --page-size 1", "--max-total-tokens", "--max-total-tokens has no value"},
		{"launch flag at the end", "python -m sglang.launch_server --context-length 1048576 --max-total-tokens", "--max-total-tokens", "--max-total-tokens has no value"},
		{"launch non-numeric pool", "python -m sglang.launch_server --context-length 1048576 --max-total-tokens 681k", "--max-total-tokens", `--max-total-tokens "681k": must be a whole number of tokens`},
		{"launch bad context", "python -m sglang.launch_server --context-length lots --max-total-tokens 681280", "--context-length", `--context-length "lots": must be a whole number of tokens, such as 1048576 or 1M`},
		{"launch zero page", "python -m sglang.launch_server --context-length 1M --max-total-tokens 681280 --page-size 0", "--page-size", "--page-size 0: must be between 1 and 65,536 tokens"},
		{"launch unclosed quote", `python -m sglang.launch_server --model-path "zai-org/GLM-5.3 --context-length 1M`, "", `a quote (") in the command is not closed`},
		{"two launch commands", "python -m sglang.launch_server --disaggregation-mode prefill\npython -m sglang.launch_server --disaggregation-mode decode", "", "the text holds two launch commands"},
		// Kubernetes lists, broken in the ways people break them.
		{"an unclosed list", `["--max-total-tokens", "64"`, "", "the list: the [ on line 1 is not closed by a ]"},
		{"an empty list", `[ ]`, "", "the list is an empty list: it holds no launch"},
		{"two commas", `["--max-total-tokens",, "64"]`, "", "the list: item 2 is empty (two commas, or a comma after the [)"},
		{"a nested list", `[["--max-total-tokens", "64"]]`, "", "the list: item 1 is a list or an object: Kubernetes takes strings"},
		{"no comma", `["--max-total-tokens" "64"]`, "", `the list: item 1 is followed by "\"64\"]" where a comma or ] belongs`},
		{"a bad JSON escape", `["--max-total-tokens", "6\q"]`, "", "the list: the string on line 1 is not quoted as JSON quotes it"},
		{"an unclosed quote", `["--max-total-tokens", "64]`, "", `the list: the quote (") on line 1 is not closed`},
		{"text after the list", `["--max-total-tokens", "64"] --page-size 1`, "", "the text goes on after the list's closing ]"},
		{"a list of no launch", `["--port", "30000"]`, "", "the text is neither JSON nor an SGLang launch command"},
		{"args as a string", "command: [python3, -m, sglang.launch_server]\nargs: --max-total-tokens 64", "", `args (line 2) is "--max-total-tokens 64", not a list: Kubernetes takes a list of strings`},
		{"args with no items", "args:\nimage: x", "", "args (line 1) has no items: write the list below it"},
		{"an empty item", "args:\n  - --max-total-tokens\n  -\n", "", "args (line 1): item 2 (line 3) is empty: Kubernetes takes strings"},
		{"an object item", "args:\n  - {a: b}\n", "", "args (line 1): item 1 (line 2) is a list or an object: Kubernetes takes strings"},
		{"an unclosed item quote", "args:\n  - '--max-total-tokens\n", "", "args (line 1): the quote (') on line 2 is not closed"},
		{"no SGLang container", "containers:\n- image: nginx\n  args: [\"-g\", \"daemon off;\"]", "", "the spec's command and args name no sglang.launch_server and none of --context-length, --max-total-tokens, --page-size, --disaggregation-mode"},
		{"two SGLang containers", "- image: lmsysorg/sglang:v0.5.21\n  args: [--disaggregation-mode, prefill]\n- image: lmsysorg/sglang:v0.5.21\n  args: [--disaggregation-mode, decode]", "", "the spec has 2 containers that launch SGLang (lines 1 and 3): paste the prefill server's in the prefill box and the decode server's in the decode box"},
		{"args without the pool", "args: [--model-path, m, --disaggregation-mode, decode]", "--max-total-tokens", `--max-total-tokens is missing: without it the pool is what the GPUs' memory holds at start-up`},
		{"a bad value", `["--max-total-tokens", "lots"]`, "--max-total-tokens", `--max-total-tokens "lots": must be a whole number of tokens`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse(c.text)
			var ie *InputError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, c.field, ie.Field)
			assert.Contains(t, ie.Msg, c.msg)
			if c.field != "" {
				assert.Contains(t, ie.Msg, c.field, "the message names its field")
			}
			assert.Empty(t, ie.Box, "Parse knows no box")
			assert.Equal(t, Server{}, s, "nothing comes of a refused text")
		})
	}
}

// CheckText names the box; Check refuses servers in the wrong box.
func TestCheckRefuses(t *testing.T) {
	plain, _ := pair(t, "glm-launch")
	for _, c := range []struct {
		name, prefill, decode, box, msg string
	}{
		{"a decode server in the prefill box", minimal("decode", nil), minimal("decode", nil), "prefill",
			`the prefill server: this is a decode server (its disaggregation_mode is "decode"): paste it in the decode box`},
		{"a prefill server in the decode box", plain, plain, "decode",
			`the decode server: this is a prefill server (its disaggregation_mode is "prefill"): paste it in the prefill box`},
		{"swapped", minimal("decode", nil), minimal("prefill", nil), "",
			"the boxes are swapped: the prefill box holds a decode server and the decode box a prefill server"},
		{"a server not in PD mode", minimal("prefill", nil), minimal("null", nil), "decode",
			`the decode server: not a prefill/decode server: its disaggregation_mode is "null" — one server does both halves`},
		{"a command not in PD mode", "python -m sglang.launch_server --context-length 1M --max-total-tokens 681280", minimal("decode", nil), "prefill",
			`the prefill server: not a prefill/decode server: its command has no --disaggregation-mode, so SGLang runs it as "null"`},
		{"bad input in the decode box", plain, "{", "decode", "the decode server: the text starts with { but is not JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := CheckText(c.prefill, c.decode)
			var ie *InputError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, c.box, ie.Box)
			assert.Contains(t, err.Error(), c.msg)
			assert.Equal(t, Verdict{}, v)
		})
	}
	p, err := os.ReadFile("testdata/plain/server.json")
	require.NoError(t, err)
	_, err = CheckText(string(p), minimal("decode", nil))
	assert.ErrorContains(t, err, `the prefill server: not a prefill/decode server: its disaggregation_mode is "null"`, "the plain fixture")
}

// Where real output puts each value: the top level first, then
// internal_states[0] (recent releases repeat the server args there, with
// memory_usage.token_capacity for the pool).
func TestParseServerInfoPlaces(t *testing.T) {
	s, err := Parse(`{"internal_states": [{"context_length": 262144, "page_size": 64, "disaggregation_mode": "decode",
		"disaggregation_transfer_backend": "nixl", "memory_usage": {"weight": 40.5, "kvcache": 30.25, "token_capacity": 1048576}}],
		"version": "0.5.22"}`)
	require.NoError(t, err)
	assert.Equal(t, 262_144, s.ContextTokens)
	assert.Equal(t, 64, s.PageTokens)
	assert.Equal(t, 1_048_576, s.PoolTokens)
	assert.Equal(t, ModeDecode, s.Mode)
	assert.Equal(t, "nixl", s.Backend)
	assert.Equal(t, "0.5.22", s.Version)
	assert.Equal(t, "internal_states[0].memory_usage.token_capacity", s.names.pool)

	// The top level wins over the internal state.
	s, err = Parse(`{"max_total_num_tokens": 500000, "page_size": 1, "context_length": 1000000, "disaggregation_mode": "prefill",
		"internal_states": [{"max_total_num_tokens": 400000, "memory_usage": {"token_capacity": 300000}}]}`)
	require.NoError(t, err)
	assert.Equal(t, 500_000, s.PoolTokens)
	assert.True(t, s.BackendAssumed, "no backend: mooncake, SGLang's default")
	assert.Equal(t, "mooncake", s.Backend)
	assert.Empty(t, s.Version)
}

// context_length null is the model's own; the scheduler's
// max_req_input_len gives it back when it is below the pool, and the other
// server's context_length otherwise (the halves serve one model).
func TestParseNullContext(t *testing.T) {
	s, err := Parse(minimal("prefill", map[string]any{"context_length": null{}, "max_req_input_len": 131_066}))
	require.NoError(t, err)
	assert.Equal(t, 131_072, s.ContextTokens)
	assert.True(t, s.ContextDerived)
	assert.Equal(t, 131_066, s.Limits().MaxReqInputLen(), "the engine's rule gives the reported limit back")

	// A pool-bound limit says nothing of the context: Parse leaves it to
	// the other server.
	nullCtx := minimal("prefill", map[string]any{"context_length": null{}, "max_req_input_len": 681_274})
	s, err = Parse(nullCtx)
	require.NoError(t, err)
	assert.Zero(t, s.ContextTokens)

	v, err := CheckText(nullCtx, minimal("decode", map[string]any{"max_total_num_tokens": 1_048_576}))
	require.NoError(t, err)
	assert.True(t, v.Prefill.Server.ContextFromPeer)
	assert.Equal(t, 1_048_576, v.Prefill.Server.ContextTokens)
	assert.Equal(t, engine.Window{First: 681_274, Last: 1_048_569}, v.Window)
	assert.Contains(t, v.Notes, "prefill does not say its context length (its context_length is null): the other server's, 1,048,576, is used, as both serve one model; if the other's was set by hand, add prefill's own")

	// A command without --context-length, beside a JSON that says it.
	v, err = CheckText("sglang serve --max-total-tokens 681280 --disaggregation-mode prefill", minimal("decode", map[string]any{"max_total_num_tokens": 1_048_576}))
	require.NoError(t, err)
	assert.Equal(t, 1_048_576, v.APIContext)
	assert.Contains(t, v.Notes, "prefill does not say its context length (its command has no --context-length): the other server's, 1,048,576, is used, as both serve one model; if the other's was set by hand, add prefill's own")

	// Neither says it: where to read it.
	_, err = CheckText(nullCtx, minimal("decode", map[string]any{"context_length": null{}, "max_total_num_tokens": 1_048_576, "max_req_input_len": 1_048_570}))
	var ie *InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "context_length", ie.Field)
	assert.Empty(t, ie.Box, "both boxes")
	assert.Contains(t, ie.Msg, "neither server says its context length")
	assert.Contains(t, ie.Msg, `Read it at GET /v1/models (max_model_len), in the server's start-up log line "max_total_num_tokens=…, …, context_len=…", or as max_position_embeddings in the model's config.json`)

	// The other server's context must fit this one's reported limit.
	_, err = CheckText(minimal("prefill", map[string]any{"context_length": null{}, "max_total_num_tokens": 2_040_000, "max_req_input_len": 2_039_994}),
		minimal("decode", map[string]any{"max_total_num_tokens": 1_048_576}))
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "prefill", ie.Box)
	assert.Equal(t, "max_req_input_len", ie.Field)
	assert.Contains(t, ie.Msg, "max_req_input_len 2,039,994 is more than the other server's context length, 1,048,576 − 6")
}

// The engine's reported max_req_input_len wins over the rule on
// max_total_num_tokens (TpModelWorker.__init__ bounds it by the model
// runner's max_token_pool_size); the verdict shows both.
func TestReportedLimitWins(t *testing.T) {
	v, err := CheckText(minimal("prefill", map[string]any{"max_req_input_len": 600_000}), minimal("decode", map[string]any{"max_total_num_tokens": 1_048_576}))
	require.NoError(t, err)
	assert.Equal(t, 600_000, v.Prefill.Limits.MaxReqInputLen())
	assert.Equal(t, 600_006, v.Prefill.Server.TokenPoolSize())
	assert.Equal(t, 681_274, v.Prefill.Server.RuleLimits().MaxReqInputLen())
	assert.Equal(t, engine.Window{First: 600_000, Last: 1_048_569}, v.Window)
	assert.Equal(t, "prefill: max_req_input_len 600,000 as the server reports it (max_token_pool_size 600,006); the rule on max_total_num_tokens would give 681,274 = min(context 1,048,576 − 1, pool 681,280 − 1) − 5; 0.5.20 (mooncake) predates the fix in 0.5.21", v.Lines()[1])
	assert.Contains(t, v.Notes, "prefill reports max_req_input_len 600,000 where the rule on max_total_num_tokens 681,280 gives 681,274: SGLang bounds the limit by the model runner's max_token_pool_size (tp_worker.py), which for a hybrid sliding-window model is the full-attention pool; the verdict follows the report")

	// A report that agrees with the rule shows one figure.
	v, err = CheckText(minimal("prefill", map[string]any{"max_req_input_len": 681_274}), minimal("decode", map[string]any{"max_total_num_tokens": 1_048_576}))
	require.NoError(t, err)
	assert.False(t, v.Prefill.Server.ReportDiffers())
	assert.Equal(t, "prefill: max_req_len 681,279, max_req_input_len 681,274 = min(context 1,048,576 − 1, pool 681,280 − 1) − 5; 0.5.20 (mooncake) predates the fix in 0.5.21", v.Lines()[1])
}

// Launch commands as people write them.
func TestParseLaunch(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       Server
	}{
		{"one line", "python3 -m sglang.launch_server --model-path m --context-length 1048576 --max-total-tokens 681280 --page-size 1 --disaggregation-mode prefill --disaggregation-transfer-backend nixl",
			Server{Mode: ModePrefill, Backend: "nixl", ContextTokens: 1_048_576, PoolTokens: 681_280, PageTokens: 1}},
		{"sglang serve, flag=value, last value wins", "sglang serve --context-length=1M --max-total-tokens=1_048_576 --max-total-tokens=2040000 --page-size=64 --disaggregation-mode=decode",
			Server{Mode: ModeDecode, Backend: "mooncake", BackendAssumed: true, ContextTokens: 1 << 20, PoolTokens: 2_040_000, PageTokens: 64}},
		{"a script path, quotes, comments, CRLF continuations", "# prefill\r\n/usr/bin/env 'python3' /opt/sglang/python/sglang/launch_server.py \\\r\n  --context-length \"25.6k\" \\\r\n  --max-total-tokens 20000 # the pool\r\n  --disaggregation-mode 'prefill'",
			Server{Mode: ModePrefill, Backend: "mooncake", BackendAssumed: true, ContextTokens: 25_600, PoolTokens: 20_000, PageTokens: 1, PageAssumed: true}},
		{"pinned install", "pip install sglang[all]==0.5.22 && python -m sglang.launch_server --context-length 4k --max-total-tokens 8192 --disaggregation-mode decode --disaggregation-transfer-backend mori",
			Server{Mode: ModeDecode, Backend: "mori", Version: "0.5.22", VersionFrom: "sglang[all]==0.5.22", ContextTokens: 4_000, PoolTokens: 8_192, PageTokens: 1, PageAssumed: true}},
		{"an image tag that names no release", "docker run lmsysorg/sglang:latest python3 -m sglang.launch_server --context-length 4096 --max-total-tokens 8192 --page-size 16 --disaggregation-mode prefill",
			Server{Mode: ModePrefill, Backend: "mooncake", BackendAssumed: true, ImageTag: "lmsysorg/sglang:latest", ContextTokens: 4_096, PoolTokens: 8_192, PageTokens: 16}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse(c.text)
			require.NoError(t, err)
			c.want.Source, c.want.PoolIsCap, c.want.names = FromLaunch, true, launchNames
			assert.Equal(t, c.want, s)
		})
	}
}

func TestHumanInt(t *testing.T) {
	for s, want := range map[string]int{
		"1048576": 1_048_576, "1M": 1_048_576, "1m": 1_000_000, "25.6k": 25_600, "1K": 1024, "2G": 2 << 30,
		"0.5m": 500_000, " 7 ": 7, "1_000": 1000, "+3": 3, "-3": -3,
	} {
		got, ok := humanInt(s)
		assert.True(t, ok, "%q", s)
		assert.Equal(t, want, got, "%q", s)
	}
	for _, s := range []string{"", "M", "1.5M", "1.m", ".5m", "1x", "1__0", "_1", "1_", "1e6", "99999999999999", "1.23456789k", "12345678k"} {
		_, ok := humanInt(s)
		assert.False(t, ok, "%q", s)
	}
}

// Mixed releases, and halves that disagree, are called out; one fixed
// half is enough for the engine (each part of #38704 stops the leak alone).
func TestMixedPairs(t *testing.T) {
	v, err := CheckText(minimal("prefill", map[string]any{"version": "0.5.21"}), minimal("decode", map[string]any{"max_total_num_tokens": 1_048_576}))
	require.NoError(t, err)
	assert.Equal(t, Patched, v.Status)
	assert.Equal(t, engine.RetireOnly, v.Mode)
	assert.Equal(t, "PATCHED: the window is open but prefill's 0.5.21 retires the rejection at its door (decode: 0.5.20 (mooncake) predates the fix in 0.5.21 — upgrade it too)", v.Headline)
	assert.Contains(t, v.Notes, "mixed releases: prefill runs 0.5.21 and decode 0.5.20")

	v, err = CheckText(minimal("prefill", map[string]any{"version": nil}), minimal("decode", map[string]any{"max_total_num_tokens": 1_048_576, "version": "0.5.21"}))
	require.NoError(t, err)
	assert.Equal(t, engine.LengthCheckOnly, v.Mode)
	assert.Equal(t, "PATCHED: the window is open but decode's 0.5.21 checks the transferred length before it commits (prefill: the JSON has no version (mooncake has the fix from 0.5.21) — check it too)", v.Headline)

	v, err = CheckText(minimal("prefill", map[string]any{"version": "0.5.21"}), minimal("decode", map[string]any{"max_total_num_tokens": 1_048_576, "version": "0.5.22"}))
	require.NoError(t, err)
	assert.Equal(t, "PATCHED: the window is open but prefill's 0.5.21 and decode's 0.5.22 retire the rejection at the door", v.Headline)

	v, err = CheckText(minimal("prefill", map[string]any{"disaggregation_transfer_backend": "ascend"}),
		minimal("decode", map[string]any{"max_total_num_tokens": 1_048_576, "page_size": 64, "context_length": 800_000, "version": nil}))
	require.NoError(t, err)
	assert.Equal(t, Exposed, v.Status)
	assert.Equal(t, "EXPOSED: prompts of 681,274–799,993 tokens pass decode's door and take prefill's placeholder path; prefill: 0.5.20 (ascend): the article names no fixed release for the ascend backend; decode: the JSON has no version (mooncake has the fix from 0.5.21)", v.Headline)
	assert.Equal(t, 800_000, v.APIContext)
	assert.Equal(t, []string{
		"the halves name different transfer backends (prefill ascend, decode mooncake): a pair moves its KV over one",
		"page sizes differ: prefill 1, decode 64 tokens per page; each pool is counted in its own pages",
		"context lengths differ: prefill 1,048,576, decode 800,000; the API refuses at the smaller",
	}, v.Notes)
}
