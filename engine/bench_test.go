package engine

import (
	"fmt"
	"testing"
)

// benchConfig is a vulnerable deployment with the given pool and page size
// and a context twice the pool, so that an over-pool prompt takes the
// placeholder path.
func benchConfig(poolTokens, pageTokens int) Config {
	return Config{
		ContextTokens: min(2*poolTokens, MaxContextTokens), PoolTokens: poolTokens, PageTokens: pageTokens,
		SlotPages: DefaultSlotPages, Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: DefaultKVBytesTok,
	}
}

// BenchmarkSendRequest sends typical requests to a long-lived engine:
// tenants A and B in turn, 64-token prompts, every 4th over the pool (the
// leaking placeholder path). The cost should follow the pages a request
// touches, not the size of the pool.
func BenchmarkSendRequest(b *testing.B) {
	sizes := []struct{ pool, page int }{
		{85_160, 1}, {GLMLaunchPoolTokens, 1}, {GLMLaunchPoolTokens, 64}, {MaxPoolTokens, 1},
	}
	// An engine keeps its whole log and takes at most MaxRequests; start a
	// fresh one well before that.
	const perEngine = MaxRequests / 2
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("pool=%d/page=%d", sz.pool, sz.page), func(b *testing.B) {
			cfg := benchConfig(sz.pool, sz.page)
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
					r.PromptTokens = sz.pool + 1
				}
				if _, err := e.Send(r); err != nil {
					b.Fatal(err)
				}
			}
		})
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
			e.scan = scanTable{}
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
