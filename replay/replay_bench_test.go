package replay

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"testing"
)

// BenchmarkReplayHour replays Mooncake's conversation hour (12,031
// requests) through both doors at issue 40's setting: a 131,072-token
// context over a 100,000-token prefill pool.
func BenchmarkReplayHour(b *testing.B) {
	text, err := os.ReadFile("../static/traces/mooncake-conversation.csv")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(bytes.NewReader(text), hourOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// synthetic is a log of n requests made as it is read, never held: a
// request a second from eight tenants, most prompts short (up to 1/256 of
// the context), one in fifty up to the whole context, so that some fall
// in the window; a load the model's servers keep up with.
type synthetic struct {
	n, i  int
	ctx   int
	buf   bytes.Buffer
	state uint64
}

func newSynthetic(n, context int) *synthetic {
	s := &synthetic{n: n, ctx: context, state: 40}
	s.buf.WriteString("t,tenant,prompt_tokens,output_tokens\n")
	return s
}

func (s *synthetic) next() uint64 { // xorshift: cheap and the same every run
	s.state ^= s.state << 13
	s.state ^= s.state >> 7
	s.state ^= s.state << 17
	return s.state
}

func (s *synthetic) Read(p []byte) (int, error) {
	for s.buf.Len() < len(p) && s.i < s.n {
		prompt := 1 + int(s.next()%uint64(s.ctx/256))
		if s.next()%50 == 0 { // one in fifty is long
			prompt = 1 + int(s.next()%uint64(s.ctx))
		}
		fmt.Fprintf(&s.buf, "%d.%03d,t%d,%d,%d\n", s.i, s.next()%1000, s.next()%8, prompt, 1+s.next()%400)
		s.i++
	}
	if s.buf.Len() == 0 {
		return 0, io.EOF
	}
	return s.buf.Read(p)
}

// BenchmarkReplayMillion replays 1,000,000 synthetic requests at the
// article's sizes (glm-launch), streamed as they are made; heap-MB is the
// heap in use at the end, which stays that of the requests in flight.
func BenchmarkReplayMillion(b *testing.B) { benchMillion(b, launchOptions()) }

// BenchmarkReplayMillionFiles is the same writing both files, as
// kvleak replay -pairs -tenants does, to nowhere.
func BenchmarkReplayMillionFiles(b *testing.B) {
	opts := launchOptions()
	opts.Files = Files{Pairs: io.Discard, Tenants: io.Discard}
	benchMillion(b, opts)
}

// BenchmarkReplayMillionInstances spreads it over 16 instances.
func BenchmarkReplayMillionInstances(b *testing.B) {
	opts := launchOptions()
	opts.Instances = 16
	benchMillion(b, opts)
}

func benchMillion(b *testing.B, opts Options) {
	for b.Loop() {
		res, err := Run(newSynthetic(1_000_000, opts.Config.ContextTokens), opts)
		if err != nil {
			b.Fatal(err)
		}
		if res.Vulnerable.Requests != 1_000_000 || res.Vulnerable.Leaked == 0 {
			b.Fatalf("%d requests", res.Vulnerable.Requests)
		}
	}
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MB")
}
