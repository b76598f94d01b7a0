package replay

import (
	"bytes"
	"io"
	"os"
	"testing"

	"kvleak/internal/testskip"
)

// benchRead reads every request of a log held in memory.
func benchRead(b *testing.B, name string) {
	text, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		rd, err := NewReader(bytes.NewReader(text), Tenancy{})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for ; ; n++ {
			if _, err := rd.Read(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		if n != 12_031 {
			b.Fatalf("%d requests", n)
		}
	}
}

// The conversation hour as the page fetches it (our CSV) and as Mooncake
// publishes it (JSONL with hash_ids).
func BenchmarkReadConversationCSV(b *testing.B) {
	benchRead(b, "../static/traces/mooncake-conversation.csv")
}

func BenchmarkReadConversationJSONL(b *testing.B) {
	benchRead(b, testskip.PublishedTrace(b, "..", "mooncake-conversation.jsonl"))
}
