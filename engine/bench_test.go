package engine

import (
	"fmt"
	"testing"
)

// benchPrefillTokens is BenchmarkSendRequest's prefill pool: small and the
// same for every decode pool, so that the prompt prefill rejects — and
// decode reserves in full — has the same size whatever decode's pool.
const benchPrefillTokens = 1_024

// benchConfig is a vulnerable deployment whose decode pool is the one
// measured and whose context backs it, so that a prompt of
// benchPrefillTokens takes the leak path: prefill's validate_input_length
// rejects it, decode's admits it and reserves its pages.
func benchConfig(decodeTokens, pageTokens int) Config {
	return Config{
		ContextTokens: min(2*decodeTokens, MaxContextTokens), PoolTokens: benchPrefillTokens, DecodePoolTokens: decodeTokens,
		PageTokens: pageTokens, Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: DefaultKVBytesTok,
	}
}

// BenchmarkSendRequest sends typical requests to a long-lived engine:
// tenants A and B in turn, 64-token prompts, every 4th one of
// benchPrefillTokens tokens (the leak path). The cost should follow the
// pages a request touches, not the size of decode's pool.
func BenchmarkSendRequest(b *testing.B) {
	// 104,857 and 1,048,576 pages: the pool ten times larger, for issue
	// 39's budget (at most 1.2× the time).
	sizes := []struct{ dpool, page int }{
		{85_160, 1}, {104_857, 1}, {GLMLaunchPoolTokens, 1}, {GLMLaunchPoolTokens, 64}, {1_048_576, 1}, {MaxPoolPages - benchPrefillTokens, 1},
	}
	// An engine keeps its whole log and takes at most MaxRequests; start a
	// fresh one well before that.
	const perEngine = MaxRequests / 2
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("dpool=%d/page=%d", sz.dpool, sz.page), func(b *testing.B) {
			cfg := benchConfig(sz.dpool, sz.page)
			e := newEngine(b, cfg)
			tenants := [2]string{"A", "B"}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if i > 0 && i%perEngine == 0 {
					b.StopTimer()
					e = newEngine(b, cfg)
					b.StartTimer()
				}
				r := Request{Tenant: tenants[i%2], PromptTokens: 64, Content: DemoSecret}
				if i%4 == 3 {
					r.PromptTokens = benchPrefillTokens
				}
				resp, err := e.Send(r)
				if err != nil {
					b.Fatal(err)
				}
				if i%4 == 3 && (!resp.PrefillRejected || resp.DecodeRejected || resp.Committed != benchPrefillTokens) {
					b.Fatalf("request %d did not take the leak path: %+v", i+1, resp)
				}
			}
		})
	}
}

// leak900k is BenchmarkLeak900k's deployment: GLM-5.3's context and
// prefill pool, and a decode pool of 2,097,152 one-token pages, so that a
// 900,000-token prompt is rejected by prefill and admitted by decode.
func leak900k() Config {
	return Config{
		ContextTokens: GLMContextTokens, PoolTokens: GLMLaunchPoolTokens, DecodePoolTokens: 2_097_152, PageTokens: 1,
		Mode: Vulnerable, Allocator: Sorted, Cancel: CancelOneHalf, KVBytesPerToken: DefaultKVBytesTok,
	}
}

// BenchmarkLeak900k sends one 900,000-token leak per op: decode reserves
// and attends over 900,000 pages, prefill writes one token. Tenant A's
// 600,000-token secret lies stale in the lowest pages, and tenant C's
// request, cancelled on one half mid-transfer, holds 500,000 pages until a
// settle that never comes; then decode's free_pages is short before every
// reservation, merge_and_sort_free runs each time and each op reads A's
// 599,999 stale pages beside its own placeholder's.
func BenchmarkLeak900k(b *testing.B) {
	leak := Request{Tenant: "B", PromptTokens: 900_000, Content: "review this codebase"}
	warm := func() *Engine {
		e := newEngine(b, leak900k())
		send(b, e, Request{Tenant: "A", PromptTokens: 600_000, Content: DemoSecret})
		send(b, e, Request{Tenant: "C", PromptTokens: 500_000, CancelAt: StagePrefillTransfer})
		send(b, e, leak) // takes the never-written pages past C's; from now on each reservation merges
		return e
	}
	e := warm()
	const perEngine = MaxRequests / 2
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i > 0 && i%perEngine == 0 {
			b.StopTimer()
			e = warm()
			b.StartTimer()
		}
		resp, err := e.Send(leak)
		if err != nil {
			b.Fatal(err)
		}
		if resp.Committed != 900_000 || resp.Sent != 1 || resp.ForeignTokens != 599_999 {
			b.Fatalf("op %d: committed %d, sent %d, foreign %d", i+1, resp.Committed, resp.Sent, resp.ForeignTokens)
		}
	}
}

// BenchmarkMixedRun10k replays a whole 10,000-request mixed run on the
// glm-launch deployment (one-half cancels, so settles too): one op is one
// Replay, engine creation included.
func BenchmarkMixedRun10k(b *testing.B) {
	cfg := glmOneHalf(b)
	ops := mixedOps(b, cfg, 10_000, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := Replay(cfg, ops); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCells aggregates the 681,280-page launch pool into 2,048 cells.
func BenchmarkCells(b *testing.B) {
	cfg := glmOneHalf(b)
	e, err := Replay(cfg, mixedOps(b, cfg, 2_000, 2))
	if err != nil {
		b.Fatal(err)
	}
	s := e.Snapshot()
	n := s.Pages()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := s.Cells(0, n-1, 2_048); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshotAt moves the 681,280-page launch pool of a 2,000-request
// log back and forth between its middle and ten steps later, as a scrubber
// does (SnapshotAt undoes and redoes the steps in between); "first" is the
// first visit, a replay from the start.
func BenchmarkSnapshotAt(b *testing.B) {
	cfg := glmOneHalf(b)
	e, err := Replay(cfg, mixedOps(b, cfg, 2_000, 2))
	if err != nil {
		b.Fatal(err)
	}
	step := e.Log().Len() / 2
	b.Run("first", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e.scan = [2]scanTable{}
			if _, err := e.SnapshotAt(step); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("move", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := e.SnapshotAt(step + 10*(i%2)); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkLeakAtScale is one leak per op at the demo's size and at the
// article's: B's 125-token prompt over A's stale KV on the demo preset,
// and B's 900,000-token prompt over A's and D's on glm-launch — decode
// reserves and attends over 8 pages, then over 900,000. With the page
// table in runs the second costs at most twice the first (issue 39).
func BenchmarkLeakAtScale(b *testing.B) {
	for _, slug := range []string{"demo", "glm-launch"} {
		b.Run(slug, func(b *testing.B) {
			p, ok := PresetBySlug(slug)
			if !ok {
				b.Fatal(slug)
			}
			leak := *p.Ops[len(p.Ops)-1].Send
			e, err := Replay(p.Config, p.Ops)
			if err != nil {
				b.Fatal(err)
			}
			const perEngine = MaxRequests / 2
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if i > 0 && i%perEngine == 0 {
					b.StopTimer()
					e, _ = Replay(p.Config, p.Ops)
					b.StartTimer()
				}
				resp, err := e.Send(leak)
				if err != nil {
					b.Fatal(err)
				}
				if !resp.Leaked() {
					b.Fatalf("op %d: no leak", i+1)
				}
			}
		})
	}
}
