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

// On a fresh demo engine (one 8-page slot of 16-token pages), each path takes
// exactly these stages.
func TestStageSequences(t *testing.T) {
	slot := pg(0, 8)
	cases := []struct {
		name string
		mode Mode
		req  Request
		want []step
		// names are SGLang identifiers the event texts must mention, by stage.
		names map[Stage][]string
	}{
		{
			name: "normal", mode: Vulnerable,
			req: Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret},
			want: []step{
				{StageIntake, HalfBoth, nil},
				{StageAdmission, HalfBoth, nil},
				{StagePrefillBootstrap, HalfPrefill, nil},
				{StageDecodePrealloc, HalfDecode, slot},
				{StagePrefillForward, HalfPrefill, nil},
				{StagePrefillTransfer, HalfPrefill, slot},
				{StageDecodeTransfer, HalfDecode, nil},
				{StageDecodeRunning, HalfDecode, slot},
				{StageResponse, HalfDecode, nil},
				{StageRelease, HalfDecode, slot},
			},
			names: map[Stage][]string{
				StageIntake:           {"validate_input_length"},
				StageAdmission:        {"PrefillBootstrapQueue", "DecodePreallocQueue"},
				StagePrefillBootstrap: {"bootstrap_room"},
				StageDecodePrealloc:   {"DecodePreallocQueue", "send_metadata"},
				StagePrefillTransfer:  {"send_kv_chunk", "KVPoll.Success"},
				StageDecodeTransfer:   {"KVPoll", "kv_committed_len"},
				StageResponse:         {"HTTP 200"},
				StageRelease:          {"free()"},
			},
		},
		{
			name: "placeholder, vulnerable door", mode: Vulnerable,
			req: Request{Tenant: "B", PromptTokens: DemoPromptB},
			want: []step{
				{StageIntake, HalfBoth, nil},
				{StageAdmission, HalfBoth, nil},
				{StagePrefillBootstrap, HalfPrefill, nil},
				{StageDecodePrealloc, HalfDecode, slot},
				{StagePrefillForward, HalfPrefill, nil},
				{StagePrefillTransfer, HalfPrefill, pg(0, 1)}, // the one placeholder token
				{StageDecodeTransfer, HalfDecode, nil},
				{StageDecodeRunning, HalfDecode, slot}, // reads the whole reservation
				{StageResponse, HalfDecode, nil},
				{StageRelease, HalfDecode, slot},
			},
			names: map[Stage][]string{
				StageIntake:          {"validate_input_length", "max_req_input_len 122", "Input length (200 tokens) exceeds the maximum allowed length (122 tokens)", "set_finish_with_abort", "FINISH_ABORT(400", "finished() is still false"},
				StageAdmission:       {"req.finished()", "FINISH_ABORT(400)"},
				StagePrefillForward:  {"placeholder"},
				StagePrefillTransfer: {"send_kv_chunk", "KVPoll.Success", "FINISH_LENGTH(0)"},
				StageDecodeTransfer:  {"KVPoll.Success", "kv_committed_len", "whole reservation"},
				StageResponse:        {"HTTP 200", "intake had rejected"},
				StageRelease:         {"free()"},
			},
		},
		{
			name: "placeholder, fixed door", mode: Fixed,
			req: Request{Tenant: "B", PromptTokens: DemoPromptB},
			want: []step{
				{StageIntake, HalfBoth, nil},
				{StageAdmission, HalfBoth, nil},
				{StageResponse, HalfAPI, nil},
			},
			names: map[Stage][]string{
				StageIntake:    {"validate_input_length", "set_finish_with_abort"},
				StageAdmission: {"FINISH_ABORT(400)", "no KV sender", "no page allocated"},
				StageResponse:  {"HTTP 400", "Input length (200 tokens) exceeds the maximum allowed length (122 tokens)"},
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
			e := newEngine(t, cfg)
			resp := send(t, e, tc.req)
			events := e.Log().Copy()
			require.Equal(t, tc.want, steps(events))
			for i, ev := range events {
				assert.Equal(t, i+1, ev.Step)
				assert.Equal(t, 1, ev.Request)
				assert.Equal(t, tc.req.Tenant, ev.Tenant)
				assert.NotEmpty(t, ev.Text, "step %d has an explanation", ev.Step)
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

// The running stage names the writer of every page it read.
func TestDecodeRunningExplainsProvenance(t *testing.T) {
	e := replayPreset(t, "demo")
	running := eventsOf(e.Log().Copy(), 2)
	var text string
	for _, ev := range running {
		if ev.Stage == StageDecodeRunning {
			text = ev.Text
		}
	}
	assert.Equal(t, "The running batch attends over 8 pages: 1 written by this request, 7 last written by r1 (tenant A) — stale, never cleared.", text)
	prealloc := running[3]
	require.Equal(t, StageDecodePrealloc, prealloc.Stage)
	assert.Contains(t, prealloc.Text, "They still hold old KV — 8 of tenant A — because free() does not clear.")
}

// A prompt larger than the slot reserves as many pages as it needs; one
// smaller than the slot still reserves the whole slot but writes and reads
// only its own pages.
func TestNormalPathSizes(t *testing.T) {
	cfg := Config{ContextTokens: 4096, PoolTokens: 1024, PageTokens: 16, SlotPages: 8,
		Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
	cases := []struct {
		tokens         int
		reserved, read int
		verdict        string
	}{
		{1, 8, 1, "OK: HTTP 200 with tenant A's own 1 page"},
		{16, 8, 1, "OK: HTTP 200 with tenant A's own 1 page"},
		{17, 8, 2, "OK: HTTP 200 with tenant A's own 2 pages"},
		{128, 8, 8, "OK: HTTP 200 with tenant A's own 8 pages"},
		{129, 9, 9, "OK: HTTP 200 with tenant A's own 9 pages"},
		{1017, 64, 64, "OK: HTTP 200 with tenant A's own 64 pages"}, // min(4,096, 1,024) − 7: the longest read in full
	}
	for _, tc := range cases {
		e := newEngine(t, cfg)
		resp := send(t, e, Request{Tenant: "A", PromptTokens: tc.tokens})
		assert.Equal(t, 200, resp.Status, "tokens %d", tc.tokens)
		assert.Equal(t, tc.reserved, resp.Allocated, "tokens %d", tc.tokens)
		assert.Equal(t, tc.read, resp.ReadPages.Len(), "tokens %d", tc.tokens)
		assert.False(t, resp.Leaked())
		assert.Equal(t, tc.verdict, resp.Verdict())
	}
}
