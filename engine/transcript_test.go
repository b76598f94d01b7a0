package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResponseTranscript(t *testing.T) {
	demo := replayPreset(t, "demo")
	fixed := replayPreset(t, "demo-fixed")
	e := newEngine(t, DemoConfig())
	own := send(t, e, Request{Tenant: "A", PromptTokens: 20, Content: "notes"})
	api := send(t, e, Request{Tenant: "C", PromptTokens: 256})
	cases := []struct {
		name string
		resp Response
		want []string
	}{
		{"the article's leak", demo.Responses()[1], []string{
			"tenant-B's response : tenant-B:<placeholder-token>" + repeat(" | tenant-A:PROJECT_ZEPHYR_Q4_FORECAST", 7),
			"HTTP status reported to tenant-B: 200 OK",
			"LEAK: tenant-B's response contains tenant-A's data -> True",
		}},
		{"the article's refusal", fixed.Responses()[1], []string{
			"tenant-B's response : HTTP 400: request rejected (context length exceeds KV pool capacity)",
		}},
		{"no leak", own, []string{
			"tenant-A's response : tenant-A:notes | tenant-A:notes",
			"HTTP status reported to tenant-A: 200 OK",
			"LEAK: tenant-A's response contains another tenant's data -> False",
		}},
		{"the API's refusal is SGLang's", api, []string{
			"tenant-C's response : HTTP 400: The input (256 tokens) is longer than the model's context length (256 tokens).",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.resp.Transcript())
		})
	}
}

func TestDemoTranscriptIsComputed(t *testing.T) {
	lines, err := DemoTranscript()
	require.NoError(t, err)
	require.Len(t, lines, 8)
	assert.Equal(t, demoBody(t), lines[2], "the body line is the demo preset's response")
}

func demoBody(t *testing.T) string {
	return replayPreset(t, "demo").Responses()[1].Transcript()[0]
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}
