package model

import (
	"fmt"

	"kvleak/engine"
)

// The choices of the admission mode and the allocator, with what each
// means: the engine's words, which say what is SGLang's.

func modeOptions() []Option {
	var out []Option
	for _, m := range engine.Modes() {
		out = append(out, Option{string(m.Mode), m.Name})
	}
	return out
}

func modeHint(m engine.Mode) string { return modeInfo(m).Description }

// modeInfo is the engine's description of mode m, the zero one for a mode
// it does not list.
func modeInfo(m engine.Mode) engine.ModeInfo {
	for _, i := range engine.Modes() {
		if i.Mode == m {
			return i
		}
	}
	return engine.ModeInfo{}
}

var allocatorLabels = map[engine.Allocator]string{
	engine.Sorted: "sorted (SGLang's PD default)",
	engine.LIFO:   "lifo (paged, without need_sort)",
	engine.FIFO:   "fifo (page size 1, without need_sort)",
}

var allocatorHints = map[engine.Allocator]string{
	engine.Sorted: "SGLang in PD mode: free() stages pages in release_pages; when free_pages runs short, merge_and_sort_free merges them back sorted by page id.",
	engine.LIFO:   "SGLang's paged allocator without need_sort: freed pages go to the front of free_pages, so the most recently freed come back first.",
	engine.FIFO:   "SGLang's page-size-1 allocator without need_sort: freed pages go to the back of free_pages and come back last.",
}

func allocatorOptions() []Option {
	var out []Option
	for _, a := range engine.Allocators {
		out = append(out, Option{string(a), allocatorLabels[a]})
	}
	return out
}

// allocatorHint says what the policy does and what it implies.
func allocatorHint(a engine.Allocator) string {
	if a == "" {
		a = engine.Sorted
	}
	return allocatorHints[a] + " It decides whose stale KV a reservation gets, not whether: free() clears nothing."
}

// poolNote is PoolNote for one snapshot, from the counts the engine keeps
// (no pass over the pool).
func poolNote(a engine.Allocator, snap *engine.Snapshot) string {
	if a == "" {
		a = engine.Sorted
	}
	free, held, stale := snap.Occupancy()
	used := held + stale // a leaked page is one of these too
	implies := "which of them a reservation gets first is the policy's choice"
	switch free {
	case snap.Pages():
		implies = "a cold pool: the first reservations get no one's KV"
	case 0:
		implies = "a warm pool: whatever the policy, a reservation gets some request's stale KV"
	}
	return fmt.Sprintf("Allocator %s. Of %s pages, %s hold no KV (never written, or scrubbed) and %s hold some request's KV — %s. The policy decides whose stale KV a reservation gets, not whether.",
		a, engine.Thousands(int64(snap.Pages())), engine.Thousands(int64(free)), engine.Thousands(int64(used)), implies)
}
