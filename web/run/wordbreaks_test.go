package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Identifiers may wrap after "_" or "." and between CamelCase's words,
// never mid-word, and the text stays escaped.
func TestBreakableBreaksBetweenAnIdentifiersParts(t *testing.T) {
	for in, want := range map[string]string{
		"":                        "",
		"release":                 "release",
		"prefill.bootstrap":       "prefill.<wbr>bootstrap",
		"DecodeTransferQueue":     "Decode<wbr>Transfer<wbr>Queue",
		"kv_committed_len":        "kv_<wbr>committed_<wbr>len",
		"send_kv_chunk over RDMA": "send_<wbr>kv_<wbr>chunk over RDMA",
		"KVPoll":                  "KVPoll",
		"décodeÜber":              "décode<wbr>Über",
		"a<b>_c&d":                "a&lt;b&gt;_<wbr>c&amp;d",
		"_x.":                     "_<wbr>x.",
	} {
		assert.Equal(t, want, breakable(in), "%q", in)
	}
}

// BenchmarkBreakable is a stage's longest role, as a step writes it.
func BenchmarkBreakable(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = breakable("pop_preallocated: the budget, then pages for fill_len; send_metadata")
	}
}
