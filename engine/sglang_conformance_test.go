package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// SGLang's own unit tests, case by case, against the engine: inputs and
// expected outputs as the upstream files pin them (sgl-project/sglang,
// test/registered/unit/...). A case the engine cannot express is listed
// in docs/design.md with the reason. The commit each was read at is in
// the case's comment.

// disaggregation/test_decode_prealloc_admission.py @55647ec9,
// _admission_required_tokens for a fresh request (no old allocation, no
// decode radix prefix): the page tail is not charged twice against the
// reserve.
func TestSGLangAdmissionRequiredTokens(t *testing.T) {
	for _, tc := range []struct {
		name                string
		page, reserve, fill int
		want                int
	}{
		{"test_page_tail_is_not_charged_twice_against_the_reserve", 16, 34, 14, 48},
		{"test_an_aligned_fill_still_pays_the_full_reserve", 16, 34, 32, 66},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Budget{Available: 1 << 20}.Check(tc.fill, 0, tc.reserve, tc.page)
			assert.Equal(t, tc.want, c.required())
		})
	}
}

// managers/test_scheduler_init_req_max_new_tokens.py @05f97478, the cases
// without SGLANG_MAX_NEW_TOKENS_LIMIT (which the engine does not model).
// SGLang's scheduler sets max_req_len directly; here it comes from the
// context (max_req_len = min(context − 1, pool − 1)), so each case picks
// the context that gives the upstream max_req_len.
func TestSGLangInitReqMaxNewTokens(t *testing.T) {
	for _, tc := range []struct {
		name                                  string
		maxReqLen, pool, page, input, request int
		want                                  int
	}{
		{"test_limit_disabled_by_default", 128, 1024, 1, 8, 64, 64},
		{"test_non_positive_limit_is_ignored", 128, 1024, 1, 8, 64, 64},
		{"test_context_rule_binds_tighter_than_limit", 32, 1024, 1, 20, 64, 11},
		{"test_budget_rule_binds_tighter_than_limit", 128, 24, 4, 8, 64, 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLimits(tc.maxReqLen+1, tc.pool, tc.page)
			require.LessOrEqual(t, l.MaxReqLen(), tc.maxReqLen)
			assert.Equal(t, tc.want, l.ClampMaxNew(tc.input, tc.request))
		})
	}
}

// The same file's test_admission_rules_sweep: over a grid, the clamp is
// never negative, a positive result keeps input + r below max_req_len and
// ceil_page(input) + r + page below the pool, and one token more would
// break one of them (or the request).
func TestSGLangInitReqMaxNewTokensSweep(t *testing.T) {
	for _, shape := range []struct{ maxReqLen, pool int }{{128, 1024}, {32, 24}, {128, 24}} {
		for _, page := range []int{1, 4, 16} {
			for _, input := range []int{1, 8, 100} {
				for _, request := range []int{0, 5, 64, 1 << 20} {
					l := NewLimits(shape.maxReqLen+1, shape.pool, page)
					r := l.ClampMaxNew(input, request)
					asked := request
					if asked == 0 {
						asked = DefaultMaxNewTokens
					}
					paged := (input + page - 1) / page * page
					fits := func(r int) bool {
						return input+r < l.MaxReqLen() && paged+r+page < l.PoolTokens && r <= asked
					}
					require.GreaterOrEqual(t, r, 0)
					if r > 0 {
						require.True(t, fits(r), "%+v page %d input %d request %d: %d", shape, page, input, request, r)
					}
					require.False(t, fits(r+1), "%+v page %d input %d request %d: %d is the most", shape, page, input, request, r)
				}
			}
		}
	}
}

// mem_cache/test_allocator_page_aligned_free.py @52d7b55f,
// test_paged_free_preserves_need_sort_release_order: a 16-token pool of
// 4-token pages (SGLang's pages 1–4); alloc(8) takes pages 1 and 2, then
// frees them. With need_sort (PD) they wait in release_pages; without it
// they are back in free_pages first.
func TestSGLangPagedFreeReleaseOrder(t *testing.T) {
	ids := func(p Pages) []int {
		var out []int
		p.Each(func(i int) bool { out = append(out, PageID(i)); return true })
		return out
	}
	for _, tc := range []struct {
		policy        Allocator
		free, release []int
	}{
		{Sorted, []int{3, 4}, []int{1, 2}},
		{LIFO, []int{1, 2, 3, 4}, nil},
	} {
		l := newFreeList(4, tc.policy)
		got, _, err := l.take(2)
		require.NoError(t, err)
		assert.Equal(t, []int{1, 2}, ids(got), "alloc(8) takes pages 1 and 2")
		l.put(got)
		var free Pages
		for i := range l.free.n {
			free = append(free, *l.free.at(i))
		}
		assert.Equal(t, tc.free, ids(free), "%s: free_pages", tc.policy)
		assert.Equal(t, tc.release, ids(Pages(l.staged)), "%s: release_pages", tc.policy)
		assert.Equal(t, 4, l.len(), "available_size counts release_pages too")
	}
}

// mem_cache/test_allocator_cpu.py @6204cdc6: test_merge_and_sort_free
// (release [3, 1, 2] and free [6, 5] merge into [1, 2, 3, 5, 6]),
// test_slot_zero_never_returned and test_over_capacity_returns_none.
func TestSGLangAllocatorCPU(t *testing.T) {
	l := freeList{policy: Sorted}
	for _, id := range []int{6, 5} {
		l.free.pushBack(Run{id - 1, 1})
		l.nFree++
	}
	l.staged = Pages{{2, 1}, {0, 1}, {1, 1}}
	l.nStage = 3
	assert.Equal(t, 3, l.mergeAndSortFree())
	var merged []int
	for i := range l.free.n {
		r := l.free.at(i)
		for id := r.First; id < r.First+r.Count; id++ {
			merged = append(merged, PageID(id))
		}
	}
	assert.Equal(t, []int{1, 2, 3, 5, 6}, merged)
	assert.Empty(t, l.staged, "release_pages is empty after the merge")

	// A 64-token pool of 4-token pages: every page it hands out is 1–16.
	all := newFreeList(16, Sorted)
	got, _, err := all.take(16)
	require.NoError(t, err)
	got.Each(func(i int) bool { assert.GreaterOrEqual(t, PageID(i), 1, "slot 0 is never returned"); return true })
	assert.Equal(t, "1–16", got.String())

	// (16, 4): alloc(20) needs 5 pages of 4.
	small := newFreeList(4, Sorted)
	_, _, err = small.take(5)
	assert.Error(t, err, "over capacity")
	assert.Equal(t, 4, small.len(), "a refused allocation changes nothing")
}

// disaggregation/test_admission_abort_not_enqueued.py @1029f419 (#38935):
// test_rejected_request_is_retired_at_each_pd_door — a 1,500-token prompt
// on servers whose max_req_input_len is 1,018 is retired at both doors
// with its 400 and nothing allocated — and
// test_valid_request_still_admitted — a 16-token prompt is admitted.
func TestSGLangAdmissionAbortNotEnqueued(t *testing.T) {
	cfg := Config{ContextTokens: 4096, PoolTokens: 1024, DecodePoolTokens: 1024, PageTokens: 1,
		Mode: Upstream, Allocator: Sorted, Cancel: CancelBoth, KVBytesPerToken: 1}
	require.Equal(t, 1018, cfg.LimitsOf(ServerDecode).MaxReqInputLen())
	e := newEngine(t, cfg)
	r := send(t, e, Request{Tenant: "A", PromptTokens: 1500, MaxNewTokens: 8})
	assert.Equal(t, DoorRetires, cfg.Admit(1500, 8).Door)
	assert.Equal(t, StateRejected, r.State)
	assert.Equal(t, 400, r.Status, "test_retire_detaches_a_streaming_session: FINISH_ABORT with status 400")
	assert.Equal(t, "Input length (1500 tokens) exceeds the maximum allowed length (1018 tokens). Use a shorter input or enable --allow-auto-truncate.", r.Reason)
	assert.Zero(t, r.Allocated, "no receiver, no prealloc")
	assert.Zero(t, e.Metrics().Decode.Allocated+e.Metrics().Prefill.Allocated)

	ok := send(t, e, Request{Tenant: "A", PromptTokens: 16, MaxNewTokens: 8})
	assert.Equal(t, DoorAdmits, cfg.Admit(16, 8).Door)
	assert.Equal(t, 200, ok.Status)
	assert.Equal(t, 16, ok.Committed)
}

// managers/test_disagg_input_limit.py @1c22257f,
// test_validate_input_length_rejects_shared_limit_when_disabled: 12
// tokens against a limit of 8 are rejected with SGLang's message (a prompt
// of the limit itself is rejected too: len >= max_req_input_len).
func TestSGLangValidateInputLength(t *testing.T) {
	l := NewLimits(14, 1024, 1) // max_req_len 13, max_req_input_len 8
	require.Equal(t, 8, l.MaxReqInputLen())
	assert.True(t, l.Rejects(12))
	assert.True(t, l.Rejects(8))
	assert.False(t, l.Rejects(7))
	assert.Contains(t, inputLengthMessage(12, l.MaxReqInputLen()), "exceeds the maximum allowed length (8 tokens)")
}
