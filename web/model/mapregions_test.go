package model

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// checkRegions holds a map's regions to the pool they name: in page order,
// covering the pool when none is left unlisted, each one state and tenant
// all through as the engine reports its pages, leaked exactly where the
// last response leaked.
func checkRegions(t *testing.T, snap *engine.Snapshot, tenants []string, r MapRegions) {
	t.Helper()
	require.NotEmpty(t, r.Items)
	require.LessOrEqual(t, len(r.Items), MaxMapRegions)
	next := 0
	for _, it := range r.Items {
		if r.Unlisted == "" {
			require.Equal(t, next, it.First, "%s follows the region before", it.Pages)
		}
		require.Greater(t, it.First, next-1, "%s: in page order", it.Pages)
		require.LessOrEqual(t, it.First, it.Last)
		next = it.Last + 1
		assert.Equal(t, pagesWords(engine.Pages{{First: it.First, Count: it.Last - it.First + 1}}), it.Pages)
		for _, id := range []int{it.First, (it.First + it.Last) / 2, it.Last} {
			p, err := snap.Page(id)
			require.NoError(t, err)
			assert.Equal(t, p.State, it.State, "%s, page %d", it.Pages, id)
			assert.Equal(t, p.State == engine.PageLeaked, it.Leaked, "%s, page %d", it.Pages, id)
			want := -1
			for i, name := range tenants {
				if name == p.Owner {
					want = i
				}
			}
			assert.Equal(t, want, it.Tenant, "%s, page %d: its owner's colour", it.Pages, id)
		}
	}
	if r.Unlisted == "" {
		assert.Equal(t, snap.Pages(), next, "the regions end with the pool")
	}
}

// At launch scale decode's map names B's read window span by span in the
// response body's words — its pages and whose KV — the free tail after
// it, and prefill's names whose stale KV it keeps. Every figure comes from
// the engine's run.
func TestMapRegionsAtLaunchScale(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	r := s.PoolMap().Regions
	checkRegions(t, s.Snapshot(), s.Tenants(), r)
	resp, ok := s.LastResponse()
	require.True(t, ok)
	assert.Equal(t, "decode's read window for "+requestOf(resp.Request, resp.Tenant)+": "+pagesWords(resp.ReadPages), r.Window)

	// The body's segments are the regions in the window, word for word.
	body := s.Response().Body
	var inWindow []MapRegion
	for _, it := range r.Items {
		if resp.ReadPages.Contains(it.First) {
			inWindow = append(inWindow, it)
			assert.Contains(t, it.Now, "read by "+requestOf(resp.Request, resp.Tenant), it.Pages)
		} else {
			assert.NotContains(t, it.Now, "read by", it.Pages)
		}
	}
	require.Len(t, inWindow, len(body))
	leaked := 0
	for i, seg := range body {
		assert.Equal(t, [3]any{seg.Pages, seg.Who, seg.Leaked}, [3]any{inWindow[i].Pages, inWindow[i].Whose, inWindow[i].Leaked})
		if seg.Leaked {
			leaked++
		}
	}
	assert.Equal(t, len(resp.Leaks), leaked, "a leaked region per tenant whose KV B read")
	last := r.Items[len(r.Items)-1]
	assert.Equal(t, [3]any{s.Snapshot().Pages() - 1, "zeroed or never written", "free"}, [3]any{last.Last, last.Whose, last.Now}, "the free tail")
	assert.Empty(t, r.Unlisted)

	// Prefill's pool: whose stale KV, read by nobody.
	p := s.PrefillPool().Map.Regions
	prefill, err := s.Engine().ViewAtOf(engine.ServerPrefill, s.Current())
	require.NoError(t, err)
	checkRegions(t, prefill, s.Tenants(), p)
	assert.Empty(t, p.Window)
	for _, it := range p.Items {
		assert.NotContains(t, it.Now, "read by")
	}
	assert.Equal(t, "stale (freed, still holding KV)", p.Items[0].Now)

	// Before the first request both pools are one free span.
	require.NoError(t, s.SelectStep(1))
	require.Len(t, s.PoolMap().Regions.Items, 1)
	assert.Equal(t, "free", s.PoolMap().Regions.Items[0].Now)
}

// At B's read, its window is held and read by it; every step of the run
// keeps the regions true to the pool.
func TestMapRegionsFollowTheSteps(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	for step := 1; step <= s.Steps(); step++ {
		require.NoError(t, s.ScrubTo(step))
		checkRegions(t, s.Snapshot(), s.Tenants(), s.PoolMap().Regions)
	}
	held := 0
	for step := 1; step <= s.Steps(); step++ {
		require.NoError(t, s.ScrubTo(step))
		for _, it := range s.PoolMap().Regions.Items {
			if it.Leaked && strings.HasPrefix(it.Now, "held and read by") {
				held++
			}
		}
	}
	assert.Positive(t, held, "some step shows B holding the pages it read")
}

// A pool of many spans names MaxMapRegions-1 of them, those the last
// response read first, and says how many it left out.
func TestMapRegionsKeepTheLeakedWhenThereAreMany(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	require.NoError(t, s.SetText(PromptTokens, "3"))
	for _, tenant := range []string{"A", "C", "A", "C", "A", "C", "A", "C", "A", "C"} {
		require.NoError(t, s.SelectTenant(tenant))
		require.NoError(t, s.Send())
	}
	require.NoError(t, s.SelectTenant("B"))
	require.NoError(t, s.SetText(PromptTokens, "900000"))
	require.NoError(t, s.Send())
	r := s.PoolMap().Regions
	require.NotEmpty(t, r.Unlisted, "more spans than a map names")
	require.Len(t, r.Items, MaxMapRegions-1)
	checkRegions(t, s.Snapshot(), s.Tenants(), r)
	resp, ok := s.LastResponse()
	require.True(t, ok)
	leaked, read := 0, 0
	for _, it := range r.Items {
		n := it.Last - it.First + 1
		if it.Leaked {
			leaked += n
		}
		if resp.ReadPages.Contains(it.First) {
			read += n
		}
	}
	require.Positive(t, resp.LeakedPages.Len(), "B's leak")
	assert.Equal(t, resp.LeakedPages.Len(), leaked, "every leaked page is named")
	assert.Equal(t, resp.ReadPages.Len(), read, "every page B read is named")
}
