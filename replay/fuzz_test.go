package replay

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Run one at a time, for instance:
//
//	go test -run XXX -fuzz FuzzReadJSONL -fuzztime 60s ./replay

// checkRead reads text to its end and checks what any log must give: no
// panic, every request one the simulation takes, in time order, and every
// data line either a request or a skip.
func checkRead(t *testing.T, text string, ten Tenancy) {
	rd, err := NewReader(strings.NewReader(text), ten)
	if err != nil {
		if rd != nil || err.Error() == "" {
			t.Fatalf("refused with a reader or no message: %v", err)
		}
		return
	}
	var prev Request
	for n := 0; ; n++ {
		q, err := rd.Read()
		if err == io.EOF {
			if n == 0 {
				t.Fatal("io.EOF without a request")
			}
			break
		}
		if err != nil {
			if n > 0 || rd.Requests() != 0 || !strings.HasPrefix(err.Error(), "no request could be read") && err.Error() != "the log has a header but no requests" {
				t.Fatalf("after %d requests: %v", n, err)
			}
			break
		}
		switch {
		case q.PromptTokens < 1 || q.PromptTokens > MaxPromptTokens,
			q.OutputTokens < 0 || q.OutputTokens > MaxOutputTokens,
			q.At < 0 || q.At > MaxSeconds*time.Second,
			checkTenant(q.Tenant) != nil,
			q.Line <= prev.Line, q.At < prev.At:
			t.Fatalf("request %+v after %+v", q, prev)
		}
		prev = q
	}
	s := rd.Skipped()
	if rd.Lines() != rd.Requests()+s.Count || len(s.First) != min(s.Count, MaxSkipsKept) {
		t.Fatalf("%d lines, %d requests, %d skipped, %d kept", rd.Lines(), rd.Requests(), s.Count, len(s.First))
	}
	for _, k := range s.First {
		if k.Line < 1 || k.Reason == "" || strings.ContainsAny(k.Error(), "\n\r") {
			t.Fatalf("skip %#v", k)
		}
	}
}

func addFiles(f *testing.F, glob string) {
	names, err := filepath.Glob(glob)
	if err != nil || len(names) == 0 {
		f.Fatal("no seeds", glob, err)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), uint16(0), uint64(0))
	}
}

// FuzzRead takes any text, the format's detection included.
func FuzzRead(f *testing.F) {
	addFiles(f, "testdata/*.*l")
	addFiles(f, "testdata/*.csv")
	for _, s := range []string{"", "\n", "{", "[]", "t,tenant\n", "\uFEFF{\"t\":1}", "TIMESTAMP,ContextTokens,GeneratedTokens\n\"", "{\"t\":1,\"prompt_tokens\":1,\"output_tokens\":1}\n{\"t\":0.5"} {
		f.Add(s, uint16(3), uint64(1))
	}
	f.Fuzz(func(t *testing.T, text string, tenants uint16, seed uint64) {
		checkRead(t, text, Tenancy{Tenants: int(tenants), Seed: seed})
	})
}

// FuzzReadJSONL fuzzes the lines after a good first line of ours or
// Mooncake's, so that the JSONL parser is what is reached.
func FuzzReadJSONL(f *testing.F) {
	addFiles(f, "testdata/*.jsonl")
	for _, s := range []string{
		`{"t": 1.5, "tenant": "B", "prompt_tokens": 125, "output_tokens": 0, "x": [1, {"y": "}]"}]}`,
		`{"timestamp": 1, "input_length": 1, "output_length": 1, "hash_ids": [1,2]}`,
		`{"t": "2", "tenant": "\u00e9\"", "prompt_tokens": "3", "output_tokens": 4}`, `{"t":1,"t":1}`, `{} `, `{"a":{"b":[[]]}}`,
	} {
		f.Add(s, uint16(0), uint64(0))
	}
	f.Fuzz(func(t *testing.T, body string, tenants uint16, seed uint64) {
		ten := Tenancy{Tenants: int(tenants), Seed: seed}
		checkRead(t, `{"t": 0, "tenant": "A", "prompt_tokens": 1, "output_tokens": 1}`+"\n"+body, ten)
		checkRead(t, `{"timestamp": 0, "input_length": 1, "output_length": 1}`+"\n"+body, ten)
	})
}

// FuzzReadCSV fuzzes the lines under our header and Azure's.
func FuzzReadCSV(f *testing.F) {
	addFiles(f, "testdata/*.csv")
	for _, s := range []string{"1,A,2,3", "0.5,\"B, \"\"x\"\"\",1,0\n1,\"C", "2023-11-16 18:15:46.6805900,374,44\n2023-11-16T18:15:46+01:00,1,1", "1,A", ",,,", "\"\n\"\n"} {
		f.Add(s, uint16(0), uint64(0))
	}
	f.Fuzz(func(t *testing.T, body string, tenants uint16, seed uint64) {
		ten := Tenancy{Tenants: int(tenants), Seed: seed}
		checkRead(t, "t,tenant,prompt_tokens,output_tokens\n"+body, ten)
		checkRead(t, "TIMESTAMP,ContextTokens,GeneratedTokens\n"+body, ten)
	})
}
