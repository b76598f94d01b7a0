package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/engine/trace"
	"kvleak/internal/jsonlite"
	"kvleak/permalink"
	"kvleak/web/model"
)

func traceOf(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	require.Equal(t, exitOK, run(append([]string{"trace"}, args...), &out, &errOut), errOut.String())
	return out.Bytes()
}

// pageTrace is what the page's Export trace downloads for a link: the run
// the session opens from it, exported under the session's preset.
func pageTrace(t *testing.T, query string) []byte {
	t.Helper()
	st, err := model.DecodeLink(query)
	require.NoError(t, err)
	s := model.NewSession()
	require.NoError(t, s.ApplyLink(st))
	data, err := trace.Export(s.Preset(), s.Config(), s.Ops())
	require.NoError(t, err)
	return data
}

func TestTraceOfAPreset(t *testing.T) {
	p, _ := engine.PresetBySlug("glm-launch")
	want, err := trace.Export(p.Slug, p.Config, p.Ops)
	require.NoError(t, err)
	assert.Equal(t, want, traceOf(t, "-preset", "glm-launch"))
	golden, err := os.ReadFile("../../engine/trace/testdata/demo.trace.json")
	require.NoError(t, err)
	assert.Equal(t, golden, traceOf(t), "the demo's when nothing is named")
}

// The CLI prints, for a link, the bytes the page downloads for it.
func TestTraceOfALinkIsThePages(t *testing.T) {
	late, _ := engine.PresetBySlug("late-write")
	demo, _ := engine.PresetBySlug("demo")
	withOps := permalink.EncodeLink(permalink.LinkState{Preset: "demo", Config: demo.Config,
		Ops: append(demo.Ops, engine.SendOp(engine.Request{Tenant: "C", PromptTokens: 40, Content: "weekly report"}))})
	for name, query := range map[string]string{
		"a preset":            "v=3&preset=demo",
		"a run":               permalink.EncodeLink(permalink.LinkState{Config: late.Config, Ops: late.Ops}),
		"a preset, and more":  withOps,
		"a version 2 link":    "v=2&preset=symmetric",
		"a run with its step": permalink.EncodeLink(permalink.LinkState{Config: late.Config, Ops: late.Ops, Step: 3}),
	} {
		t.Run(name, func(t *testing.T) {
			want := pageTrace(t, query)
			for _, link := range []string{query, "?" + query, "https://kvleak.example/play?" + query + "#log"} {
				assert.Equal(t, string(want), string(traceOf(t, "-link", link)), link)
			}
		})
	}
}

// A run too long for a link exports from its run file.
func TestTraceOfARunFile(t *testing.T) {
	cfg := engine.DemoConfig()
	var ops []engine.Op
	for i := range permalink.MaxLinkOps + 1 {
		ops = append(ops, engine.SendOp(engine.Request{Tenant: string(rune('A' + i%3)), PromptTokens: 8 + i%100}))
	}
	e, err := engine.Replay(cfg, ops)
	require.NoError(t, err)
	data, err := jsonlite.Marshal(e.Export(ops))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "run.json")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	want, err := trace.Export("", cfg, ops)
	require.NoError(t, err)
	assert.Equal(t, want, traceOf(t, "-file", path))
	assert.Contains(t, string(want), `"run":"run"`)
}

func TestTraceRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"-preset", "demo", "-link", "v=3&preset=demo"}, traceUsage},
		{[]string{"extra"}, traceUsage},
		{[]string{"-nope"}, traceUsage},
		{[]string{"-preset", "nope"}, `unknown preset "nope": one of demo, `},
		{[]string{"-link", "https://kvleak.example/"}, "the link carries no run"},
		{[]string{"-link", "v=3&tab=1"}, "the link names a run kept in a browser tab"},
		{[]string{"-link", "v=9&preset=demo"}, "the link: unknown link version"},
		{[]string{"-file", filepath.Join(t.TempDir(), "none.json")}, "no such file"},
	} {
		var out, errOut bytes.Buffer
		require.Equal(t, exitBadInput, run(append([]string{"trace"}, tc.args...), &out, &errOut), "%q", tc.args)
		assert.Contains(t, errOut.String(), tc.err, "%q", tc.args)
		assert.Empty(t, out.String())
	}
}
