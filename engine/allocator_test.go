package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Three 4-page requests on a 12-page pool, then a fourth: which pages each
// policy hands out, and whose KV the last one finds there.
func TestAllocatorOrder(t *testing.T) {
	cases := []struct {
		alloc Allocator
		want  [4]Pages
	}{
		// release_pages is merged and sorted only once free_pages runs short.
		{Sorted, [4]Pages{pg(0, 4), pg(4, 4), pg(8, 4), pg(0, 4)}},
		{"", [4]Pages{pg(0, 4), pg(4, 4), pg(8, 4), pg(0, 4)}},
		// Most recently freed first.
		{LIFO, [4]Pages{pg(0, 4), pg(0, 4), pg(0, 4), pg(0, 4)}},
		// Freed pages queue up behind the never-used ones.
		{FIFO, [4]Pages{pg(0, 4), pg(4, 4), pg(8, 4), pg(0, 4)}},
	}
	for _, tc := range cases {
		t.Run(string(tc.alloc), func(t *testing.T) {
			e := newEngine(t, Config{ContextTokens: 64, PoolTokens: 12, DecodePoolTokens: 12, PageTokens: 1,
				Mode: Vulnerable, Allocator: tc.alloc, Cancel: CancelBoth, KVBytesPerToken: 1})
			for i, tenant := range []string{"A", "B", "C", "D"} {
				r := send(t, e, Request{Tenant: tenant, PromptTokens: 4})
				require.Equal(t, 200, r.Status)
				assert.Equal(t, tc.want[i], r.ReadPages, "request %d", i+1)
			}
		})
	}
}

// The sorted policy decides whose stale KV a reservation gets, not whether:
// on a cold pool the leaking reservation gets never-written pages; once
// decode's pool is warm, merge_and_sort_free hands it the lowest ids,
// whoever wrote them. Prefill's pool of 24 tokens rejects B's 18 tokens
// (max_req_input_len 18), decode's of 32 admits them (26).
func TestSortedColdAndWarm(t *testing.T) {
	cfg := Config{ContextTokens: 64, PoolTokens: 24, DecodePoolTokens: 32, PageTokens: 1,
		Mode: Vulnerable, Allocator: Sorted, Cancel: CancelBoth, KVBytesPerToken: 1}
	cold := newEngine(t, cfg)
	send(t, cold, Request{Tenant: "A", PromptTokens: 8, Content: DemoSecret})
	r := send(t, cold, Request{Tenant: "B", PromptTokens: 18})
	require.Equal(t, PathPlaceholder, r.Path)
	assert.Equal(t, pg(8, 18), r.ReadPages, "fresh pages come first")
	assert.False(t, r.Leaked())
	assert.Equal(t, 17, r.ZeroedPages)
	assert.Equal(t, []int{1, 0, 17}, []int{r.OwnTokens, r.ForeignTokens, r.EmptyTokens})

	warm := newEngine(t, cfg)
	send(t, warm, Request{Tenant: "A", PromptTokens: 8, Content: DemoSecret})
	send(t, warm, Request{Tenant: "C", PromptTokens: 17}) // leaves decode's free_pages 7 pages short
	r = send(t, warm, Request{Tenant: "B", PromptTokens: 18})
	assert.Equal(t, pg(0, 18), r.ReadPages, "merge_and_sort_free puts page 0 first again")
	assert.Equal(t, []Leak{{Tenant: "A", Pages: 7, Tokens: 7}, {Tenant: "C", Pages: 10, Tokens: 10}}, r.Leaks)
	assert.Contains(t, textOf(eventsOf(warm.Log().Copy(), 3), StageDecodePrealloc), "merge_and_sort_free")
}

// The paged allocator prepends the freed pages in ascending page order
// (torch.unique), whatever order the slot held them in; the page-size-1
// allocator appends them in slot order.
func TestFreedPageOrder(t *testing.T) {
	for _, tc := range []struct {
		alloc Allocator
		want  []int32
	}{
		{LIFO, []int32{2, 3, 5, 6, 0, 1, 4, 7}},
		{FIFO, []int32{0, 1, 4, 7, 5, 6, 2, 3}},
		{Sorted, []int32{0, 1, 4, 7, 5, 6, 2, 3}}, // staged after free_pages, unsorted until needed
	} {
		l := newFreeList(8, tc.alloc)
		_, _, err := l.take(8)
		require.NoError(t, err)
		l.put(Pages{{0, 2}, {4, 1}, {7, 1}})
		l.put(Pages{{5, 2}, {2, 2}})
		assert.Equal(t, tc.want, l.ids(), tc.alloc)
	}
}

func TestMergeAndSortFree(t *testing.T) {
	l := newFreeList(8, Sorted)
	_, _, err := l.take(6)
	require.NoError(t, err)
	l.put(Pages{{3, 2}, {0, 1}})
	got, merged, err := l.take(3) // two in free_pages: merge first
	require.NoError(t, err)
	assert.Equal(t, 3, merged)
	assert.Equal(t, Pages{{0, 1}, {3, 2}}, got)
	assert.Equal(t, []int32{6, 7}, l.ids())
	_, merged, err = l.take(3)
	assert.EqualError(t, err, "3 pages needed, 2 free")
	assert.Zero(t, merged, "nothing staged to merge")
}

// PagedTokenToKVPoolAllocator.alloc_extend merges when
// extend_num_tokens // page_size + bs + 1 > len(free_pages): one page of
// slack earlier than alloc's need > len(free_pages).
func TestMergeForExtend(t *testing.T) {
	l := newFreeList(12, Sorted)
	a, _, err := l.take(8)
	require.NoError(t, err)
	l.put(a) // 4 free, 8 staged
	assert.Zero(t, l.mergeForExtend(31, 16), "31//16 + 2 = 3: free_pages holds 4")
	assert.Zero(t, l.mergeForExtend(32, 16), "32//16 + 2 = 4: not more than 4")
	assert.Equal(t, 8, l.mergeForExtend(48, 16), "48//16 + 2 = 5 > 4: merge_and_sort_free")
	assert.Equal(t, []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, l.ids())
	lifo := newFreeList(4, LIFO)
	assert.Zero(t, lifo.mergeForExtend(1000, 16), "only need_sort merges")
	sorted := newFreeList(4, Sorted)
	assert.Zero(t, sorted.mergeForExtend(1000, 1), "page size 1 allocates with alloc: take's own rule")
}
