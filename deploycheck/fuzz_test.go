package deploycheck

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kvleak/engine"
)

// Run them with a short minimisation, as the seeds are kilobytes long:
//
//	go test -run XXX -fuzz FuzzParse -fuzzminimizetime 2s ./deploycheck
//
// seeds are the fixtures and a few broken texts.
func seeds(f *testing.F) []string {
	files, err := filepath.Glob("testdata/*/*")
	if err != nil || len(files) == 0 {
		f.Fatal("no fixtures", err)
	}
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, ".md") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, string(b))
	}
	return append(out, "", "{", `{"internal_states": [{}]}`, `{"max_total_num_tokens": -1}`, "sglang serve --page-size",
		`python -m sglang.launch_server "`, "[]", `{"prefill": []}`,
		// issue 42's inputs: a reported limit, /server_info with a null
		// context, Kubernetes lists broken in the ways people break them.
		`{"max_total_num_tokens": 20000, "max_req_input_len": 99994, "context_length": null, "page_size": 1, "disaggregation_mode": "prefill", "version": "0.0.0.dev1+g87549f8f0"}`,
		`["--max-total-tokens", "8192", "--disaggregation-mode", "decode"`, `["--context-length", 1048576, ]`, `[["--x"]]`, `[,]`, `['it''s', "\u00e9"]`,
		"args:\n  - --max-total-tokens\n  - |\n    python3 -m sglang.launch_server \\\n      --page-size 16\n  - 'x",
		"image: lmsysorg/sglang:v0.5.21\ncommand: [\"sh\", \"-c\"]\nargs: [\"sglang serve --max-total-tokens 64 --disaggregation-mode prefill\"]",
		"args: --max-total-tokens 64", "args:\n- [a]\n", `{"spec": {"containers": [{"image": "lmsysorg/sglang:v0.5.22", "args": ["--max-total-tokens", "64"]}]}}`)
}

// Parse refuses with an *InputError or returns a server the engine can
// hold, whatever the text.
func FuzzParse(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse(text)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || ie.Msg == "" || ie.Box != "" {
				t.Fatalf("%q: error %#v", text, err)
			}
			if s != (Server{}) {
				t.Fatalf("%q: a refused text gave %+v", text, s)
			}
			return
		}
		known := s.ContextTokens != 0 // 0: not said; Check takes the other server's
		switch {
		case s.ContextTokens < 0 || s.ContextTokens > engine.MaxContextTokens,
			s.PoolTokens < 1 || s.PoolTokens > engine.MaxPoolTokens,
			s.PageTokens < 1 || s.PageTokens > min(s.PoolTokens, engine.MaxPageTokens),
			s.ReportedMaxReqInputLen < 0,
			known && s.Limits().MaxReqInputLen() < 1,
			known && s.ReportedMaxReqInputLen != 0 && s.Limits().MaxReqInputLen() != s.ReportedMaxReqInputLen,
			s.Mode != ModePrefill && s.Mode != ModeDecode && s.Mode != ModeNull:
			t.Fatalf("%q: accepted %+v", text, s)
		}
		if again, _ := Parse(text); again != s {
			t.Fatalf("%q: parsed twice differently", text)
		}
	})
}

// CheckText gives a verdict whose first line starts with its status, and
// a replay the engine accepts, or an *InputError; never a panic.
func FuzzCheckText(f *testing.F) {
	ss := seeds(f)
	for i, s := range ss {
		f.Add(s, ss[(i+1)%len(ss)])
	}
	f.Fuzz(func(t *testing.T, prefill, decode string) {
		v, err := CheckText(prefill, decode)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || ie.Msg == "" {
				t.Fatalf("error %#v", err)
			}
			return
		}
		if !strings.HasPrefix(v.Headline, string(v.Status)+": ") || v.Lines()[0] != v.Headline {
			t.Fatalf("headline %q for %s", v.Headline, v.Status)
		}
		if v.Window.Open() == (v.Status == NotExposed) {
			t.Fatalf("%s with window %v", v.Status, v.Window)
		}
		r, err := v.Replay()
		if errors.Is(err, ErrNoReplay) {
			return
		}
		if err != nil || r.Config.Validate() != nil || engine.ReplayWork(r.Config, r.Ops) > engine.MaxReplayWork {
			t.Fatalf("replay %+v: %v", r.Config, err)
		}
		for _, op := range r.Ops {
			if err := op.Send.Validate(); err != nil {
				t.Fatalf("replay request %+v: %v", op.Send, err)
			}
		}
	})
}
