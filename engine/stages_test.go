package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// step is the part of an Event the stage sequence is about.
type step struct {
	Stage Stage
	Half  Half
	Pages Pages
}

func steps(events []Event) []step {
	out := make([]step, len(events))
	for i, ev := range events {
		out[i] = step{ev.Stage, ev.Half, ev.Pages}
	}
	return out
}

// pipeline is the stages of a request that runs to its response: decode
// reserves and reads reserved, prefill builds built in its own pool, sends
// sent into decode's reservation and frees built, decode frees reserved.
func pipeline(reserved, built, sent Pages) []step {
	return []step{
		{StageIntake, HalfPrefill, nil},
		{StageIntake, HalfDecode, nil},
		{StageAdmission, HalfBoth, nil},
		{StagePrefillBootstrap, HalfPrefill, nil},
		{StageDecodePrealloc, HalfDecode, reserved},
		{StagePrefillForward, HalfPrefill, built},
		{StagePrefillTransfer, HalfPrefill, sent},
		{StageRelease, HalfPrefill, built},
		{StageDecodeTransfer, HalfDecode, nil},
		{StageDecodeRunning, HalfDecode, reserved},
		{StageResponse, HalfDecode, nil},
		{StageRelease, HalfDecode, reserved},
	}
}

// prebuilt is p for a request decode finishes in its prebuilt batch
// (check_finished before any decode forward pass): it attends over nothing.
func prebuilt(p []step) []step {
	for i := range p {
		if p[i].Stage == StageDecodeRunning {
			p[i].Pages = nil
		}
	}
	return p
}

// On a fresh demo engine (16-token pages; prefill's pool 8 pages, decode's
// 10 with 32 tokens reserved), each path takes exactly these stages.
func TestStageSequences(t *testing.T) {
	slot := pg(0, 8)
	cases := []struct {
		name  string
		mode  Mode
		dpool int // decode's pool when not the demo's
		req   Request
		want  []step
		// names are SGLang identifiers the event texts must mention, by stage.
		names map[Stage][]string
	}{
		{
			name: "normal", mode: Vulnerable,
			req:  Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret},
			want: pipeline(slot, slot, slot),
			names: map[Stage][]string{
				StageIntake:           {"validate_input_length", "The prefill server:", "The decode server:", "init_req_max_new_tokens leaves max_new_tokens 15", "below its max_req_input_len 122", "below its max_req_input_len 154"},
				StageAdmission:        {"PrefillBootstrapQueue", "DecodePreallocQueue"},
				StagePrefillBootstrap: {"bootstrap_room"},
				StageDecodePrealloc:   {"pop_preallocated: 120 + 32 reserved ≤ 160 free", "DecodePreallocQueue", "fill_len = 120", "kv_committed_len = 120", "send_metadata"},
				StagePrefillForward:   {"forward pass", "120 prompt tokens", "prefill's own pool"},
				StagePrefillTransfer:  {"send_kv_chunk", "KVPoll.Success", "120 tokens"},
				StageDecodeTransfer:   {"KVPoll", "kv_committed_len = 120"},
				StageDecodeRunning:    {"kv_committed_len = 120 positions", "120 positions written by this request"},
				StageResponse:         {"HTTP 200"},
				StageRelease:          {"free()", "Prefill (its transfer done) frees 8 pages", "Decode (request finished) frees 8 pages"},
			},
		},
		{
			name: "prefill rejects, decode admits, vulnerable door", mode: Vulnerable,
			req: Request{Tenant: "B", PromptTokens: DemoPromptB},
			// Decode reserves and reads the prompt's 8 pages, as it saw it;
			// prefill builds and sends the one placeholder token.
			want: pipeline(slot, pg(0, 1), pg(0, 1)),
			names: map[Stage][]string{
				StageIntake:          {"validate_input_length", "max_req_input_len 122", "Input length (125 tokens) exceeds the maximum allowed length (122 tokens)", "set_finish_with_abort", "FINISH_ABORT(400", "finished() is still false", "below its max_req_input_len 154"},
				StageAdmission:       {"req.finished()", "FINISH_ABORT(400)", "the prefill server"},
				StageDecodePrealloc:  {"fill_len = 125", "kv_committed_len = 125"},
				StagePrefillForward:  {"placeholder"},
				StagePrefillTransfer: {"send_kv_chunk", "KVPoll.Success", "FINISH_LENGTH(0)", "position 0"},
				StageDecodeTransfer:  {"KVPoll.Success", "kv_committed_len is fill_len = 125", "not the 1 prefill wrote"},
				StageDecodeRunning:   {"kv_committed_len = 125 positions in 8 pages", "1 position written by this request", "124 positions zeroed or never written"},
				StageResponse:        {"HTTP 200", "intake had rejected"},
				StageRelease:         {"free()"},
			},
		},
		{
			name: "both reject, vulnerable door", mode: Vulnerable, dpool: 128,
			req: Request{Tenant: "B", PromptTokens: DemoPromptB},
			// Decode reserves and is sent its own placeholder, one position,
			// then ends the request in its prebuilt batch: its pending
			// FINISH_ABORT(400) stops it before any decode forward pass.
			want: prebuilt(pipeline(pg(0, 1), pg(0, 1), pg(0, 1))),
			names: map[Stage][]string{
				StageIntake:         {"on prefill the prompt becomes one placeholder token", "on decode the prompt becomes one placeholder token"},
				StageAdmission:      {"req.finished()", "both servers"},
				StageDecodePrealloc: {"fill_len = 1 token", "decode's own placeholder"},
				StageDecodeTransfer: {"kv_committed_len = 1"},
				StageDecodeRunning:  {"prebuilt batch", "FINISH_ABORT(400), is pending on decode, so check_finished ends it before any decode forward pass", "Nothing is attended"},
				StageResponse:       {"check_finished", "FINISH_ABORT(400)", "decode's HTTP 400", "Input length (125 tokens) exceeds the maximum allowed length (122 tokens)", "Decode never attended"},
			},
		},
		{
			name: "placeholder, fixed door", mode: Fixed,
			req: Request{Tenant: "B", PromptTokens: DemoPromptB},
			want: []step{
				{StageIntake, HalfPrefill, nil},
				{StageIntake, HalfDecode, nil},
				{StageAdmission, HalfBoth, nil},
				{StageResponse, HalfAPI, nil},
			},
			names: map[Stage][]string{
				StageIntake:    {"validate_input_length", "set_finish_with_abort"},
				StageAdmission: {"FINISH_ABORT(400)", "no KV sender", "no page allocated"},
				StageResponse:  {"HTTP 400", "Input length (125 tokens) exceeds the maximum allowed length (122 tokens)"},
			},
		},
		{
			name: "API reject", mode: Vulnerable,
			req: Request{Tenant: "C", PromptTokens: 256},
			want: []step{
				{StageIntake, HalfAPI, nil},
				{StageResponse, HalfAPI, nil},
			},
			names: map[Stage][]string{
				StageIntake:   {"256 tokens", "256-token context", "400", "The input (256 tokens) is longer than the model's context length (256 tokens)."},
				StageResponse: {"HTTP 400", "longer than the model's context length"},
			},
		},
		{
			name: "API reject, fixed door", mode: Fixed,
			req: Request{Tenant: "C", PromptTokens: 256},
			want: []step{
				{StageIntake, HalfAPI, nil},
				{StageResponse, HalfAPI, nil},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DemoConfig()
			cfg.Mode = tc.mode
			if tc.dpool > 0 {
				cfg.DecodePoolTokens = tc.dpool
			}
			e := newEngine(t, cfg)
			resp := send(t, e, tc.req)
			events := e.Log().Copy()
			require.Equal(t, tc.want, steps(events))
			for i, ev := range events {
				assert.Equal(t, i+1, ev.Step)
				assert.Equal(t, 1, ev.Request)
				assert.Equal(t, tc.req.Tenant, ev.Tenant)
				assert.NotEmpty(t, ev.Text, "step %d has an explanation", ev.Step)
				// The pages of the forward pass and of prefill's release are
				// in prefill's pool; every other event's are in decode's.
				switch {
				case len(ev.Pages) == 0:
					assert.Empty(t, ev.Pool, "step %d", ev.Step)
				case ev.Stage == StagePrefillForward || ev.Stage == StageRelease && ev.Half == HalfPrefill:
					assert.Equal(t, ServerPrefill, ev.Pool, "step %d", ev.Step)
				default:
					assert.Equal(t, ServerDecode, ev.Pool, "step %d", ev.Step)
				}
			}
			for stage, names := range tc.names {
				text := textOf(events, stage)
				require.NotEmpty(t, text, "no %s event", stage)
				for _, n := range names {
					assert.Contains(t, text, n, "%s explains itself with %q", stage, n)
				}
			}
			for _, ev := range events {
				if ev.Stage == StageResponse {
					assert.Equal(t, ev.Step, resp.Step, "the response event is the response's step")
				}
			}
		})
	}
}

// textOf joins the texts of every event at stage.
func textOf(events []Event, stage Stage) string {
	var s string
	for _, ev := range events {
		if ev.Stage == stage {
			s += ev.Text + "\n"
		}
	}
	return s
}

// Every stage that ends in the log carries SGLang's own names somewhere, so
// a reader can look them up.
func TestEventTextsNameSGLang(t *testing.T) {
	e := replayPreset(t, "demo")
	all := textOf(e.Log().Copy(), StageIntake) + textOf(e.Log().Copy(), StageAdmission) +
		textOf(e.Log().Copy(), StagePrefillTransfer) + textOf(e.Log().Copy(), StageDecodeTransfer) +
		textOf(e.Log().Copy(), StageRelease)
	for _, n := range []string{"validate_input_length", "set_finish_with_abort", "req.finished()",
		"send_kv_chunk", "KVPoll", "kv_committed_len", "free()"} {
		assert.Contains(t, all, n)
	}
}

// The running stage says whose KV each position it attended over holds.
func TestDecodeRunningExplainsProvenance(t *testing.T) {
	e := replayPreset(t, "demo")
	events := eventsOf(e.Log().Copy(), 2)
	assert.Equal(t, "The running batch attends over kv_committed_len = 125 positions in 8 pages: 1 position written by this request, 119 positions of tenant A's stale KV, never cleared, 5 positions zeroed or never written.\n",
		textOf(events, StageDecodeRunning))
	assert.Contains(t, textOf(events, StageDecodePrealloc), "They still hold old KV — 8 of tenant A — because free() does not clear.")
}

// Decode reserves the pages the prompt fills — there is no fixed slot —
// and writes and reads them all. Decode's pool is two pages larger than
// prefill's: at an equal pool, init_req_max_new_tokens would leave the
// longest prompt no new token (1,024 in whole pages + 16 + 1 > 1,024) and
// decode would end it in its prebuilt batch, reading nothing.
func TestNormalPathSizes(t *testing.T) {
	cfg := Config{ContextTokens: 4096, PoolTokens: 1024, DecodePoolTokens: 1056, PageTokens: 16,
		Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
	cases := []struct {
		tokens  int
		pages   int
		verdict string
	}{
		{1, 1, "OK: HTTP 200 with tenant A's own 1 page"},
		{16, 1, "OK: HTTP 200 with tenant A's own 1 page"},
		{17, 2, "OK: HTTP 200 with tenant A's own 2 pages"},
		{128, 8, "OK: HTTP 200 with tenant A's own 8 pages"},
		{129, 9, "OK: HTTP 200 with tenant A's own 9 pages"},
		{1017, 64, "OK: HTTP 200 with tenant A's own 64 pages"}, // min(4,096, 1,024) − 7: the longest read in full
	}
	for _, tc := range cases {
		e := newEngine(t, cfg)
		resp := send(t, e, Request{Tenant: "A", PromptTokens: tc.tokens})
		assert.Equal(t, 200, resp.Status, "tokens %d", tc.tokens)
		assert.Equal(t, tc.pages, resp.Allocated, "tokens %d", tc.tokens)
		assert.Equal(t, tc.pages, resp.ReadPages.Len(), "tokens %d", tc.tokens)
		assert.Equal(t, []int{tc.tokens, tc.tokens, tc.tokens, tc.tokens, 0, 0}, counts(resp), "tokens %d", tc.tokens)
		assert.False(t, resp.Leaked())
		assert.Equal(t, tc.verdict, resp.Verdict())
	}
}
