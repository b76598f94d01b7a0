package challenge

import (
	"fmt"
	"slices"

	"kvleak/engine"
)

// Ladder is the challenges in order: challenge n is Ladder()[n-1]. Each
// call returns a fresh slice.
func Ladder() []Challenge { return slices.Clone(ladder) }

// Get is challenge n, counted from 1.
func Get(n int) (Challenge, error) {
	if n < 1 || n > len(ladder) {
		return Challenge{}, fmt.Errorf("challenge %d: the ladder has challenges 1 to %d", n, len(ladder))
	}
	return ladder[n-1], nil
}

// ladder's tenants are the presets': A holds the flag.
var ladder = []Challenge{
	{
		Title:  "Read A's flag",
		Goal:   "Tenant A's request left its flag, " + engine.DemoSecret + ", in decode's pool on the article's demo servers. As tenant B, get HTTP 200 with A's flag in the body.",
		Preset: "demo", Ops: 1,
		Hints: []string{
			"Each server checks a prompt against its own pool: the prompt field's hint names both limits.",
			"A prompt prefill rejects becomes one placeholder token, yet decode, whose pool is larger, may admit it whole and reserve pages for all of it.",
			"Send B a prompt at least prefill's max_req_input_len long and shorter than decode's.",
		},
		Lesson: "Prefill rejected B's prompt and sent one placeholder token; decode, which admitted it, reserved pages for the whole prompt and attended over them: A's stale KV, never cleared. The vulnerable door checks only finished(), so B got it with HTTP 200. That is the incident.",
		goal:   readsFlag("B", "A", engine.DemoSecret),
	},
	{
		Title:  "The shortest leak at GLM-5.3's launch",
		Goal:   "On GLM-5.3's launch settings, with tenant A's and tenant D's requests served, read another tenant's KV with HTTP 200 using the shortest prompt that can.",
		Preset: "glm-launch", Ops: 2,
		Hints: []string{
			"The leak's window is the prompt lengths prefill rejects and decode admits.",
			"A server rejects a prompt of max_req_input_len tokens or more: min(context − 1, pool − 1) − 5.",
			"The window starts at prefill's max_req_input_len itself.",
		},
		Lesson: "The window opens at prefill's max_req_input_len, the first length prefill turns into a placeholder; one token less and prefill builds the whole prompt's KV itself. The launch tests checked status codes at long context; a probe at this edge would have found the gap.",
		goal:   shortestLeak,
	},
	{
		Title:  "The last writer wins",
		Goal:   "Make tenant C read tenant B's KV: C's response, with HTTP 200, must carry pages B's request wrote.",
		Preset: "demo", Ops: 1,
		Hints: []string{
			"A freed page keeps whatever was written into it last.",
			"Decode's sorted allocator hands out the lowest free page ids again and again.",
			"Have B write pages with a prompt both servers accept, then send C a prompt in the window.",
		},
		Lesson: "free() only puts page ids back on the free list: a page holds its last writer's KV until someone writes over it. B wrote over A's pages, so C's over-long prompt read B's. Who leaks is whoever used the pages last.",
		goal:   readsWriter("C", "B"),
	},
	{
		Title:  "Scrub-on-free: a wrong 200 anyway",
		Goal:   "Freed pages are zeroed here, so no other tenant's KV is left to read. Get HTTP 200 for a request whose rejection was pending.",
		Preset: "scrub", Ops: 1,
		Hints: []string{
			"Scrubbing clears pages; it does not change which requests the door lets through.",
			"Send a prompt that prefill rejects and decode admits.",
		},
		Lesson: "Zeroing on free removes the other tenant's content, not the bug: the door still lets a rejected request through, decode still attends over pages prefill never wrote, and the client gets a 200 for nothing — at a write per page on every free.",
		goal:   wrongStatus,
	},
	{
		Title:  "A failed transfer nobody retires",
		Goal:   "The door here retires rejections, but not a KV transfer that fails. Read another tenant's KV with HTTP 200 through a failed transfer.",
		Preset: "door-errored", Ops: 1,
		Hints: []string{
			"The request form's ending can make the KV transfer fail.",
			"A prompt both servers accept gets its whole reservation. If its transfer fails, what do those pages hold?",
		},
		Lesson: "The door retired every rejection, yet a failed transfer walked through: decode, never told, committed the prompt's length and attended over pages prefill never wrote. A door has to retire every terminal state, the article's first question. (This path is the simulation's illustration: SGLang answers a failed transfer with 500.)",
		goal:   failedLeak,
	},
	{
		Title:    "Symmetric pools: can it leak?",
		Goal:     "The two servers' pools are the same size. Run the one experiment that decides whether any prompt can read another tenant's KV, then answer.",
		Question: "Can a prompt read another tenant's KV on these settings?",
		Preset:   "symmetric", Ops: 1,
		Hints: []string{
			"The leak needs decode to admit a prompt that prefill rejects.",
			"Each server rejects every prompt at or over its own max_req_input_len; the prompt field's hint names both.",
			"Probe the shortest prompt prefill rejects: if decode rejects it too, it rejects every longer one.",
		},
		Lesson: "Decode rejected the shortest prompt prefill rejects, so decode's limit is no larger than prefill's and every prompt prefill rejects, decode rejects too: it reserves a page for its own placeholder, attends over that one position and answers 400. The window is closed; the leak needs decode to admit what prefill rejects.",
		goal:   windowClosed,
	},
	{
		Title:  "The fixed door: a clean 400",
		Goal:   "The door is Cloudflare's patch. Send a prompt the vulnerable door would have leaked and get HTTP 400 with nothing allocated on either server.",
		Preset: "demo-fixed", Ops: 1,
		Hints: []string{
			"A prompt longer than the context is refused by the API, not by the door.",
			"The pools are the demo's: the window between them is still open.",
		},
		Lesson: "The patched door reads the pending rejection, not only finished(), and retires the request before a page is reserved or a transfer set up: no stale page can be read because none was handed out.",
		goal:   cleanRefusal,
	},
	{
		Title:  "The writer check: what it catches and what it does not",
		Goal:   "Decode checks each page's last writer before it attends. In one run, get a read it stops (HTTP 500) and a leak it lets through (HTTP 200 with another tenant's KV).",
		Preset: "writer-check", Ops: 1,
		Free: []string{"ctx", "pool", "dpool", "page", "alloc", "cancel"},
		Hints: []string{
			"The check reads one tag per page: the last request that wrote any of it.",
			"A page passes when this request wrote any position of it, even a single placeholder token.",
			"Make a reservation one page long: a page as large as prefill's pool, and decode's pool four pages, so that SGLang's max_new_tokens clamp leaves a two-page read room to decode.",
		},
		Lesson: "The check stopped a read of pages the request never wrote, but it keeps one tag per page: the placeholder token made the page the request's own, and the stale positions after it went out with HTTP 200. A check downstream of free() catches only what its granularity sees, the article's third question.",
		goal:   checkedBothWays,
	},
	{
		Title:  "A late write",
		Goal:   "Decode defers releasing a cancelled request's pages until prefill acknowledges; the router cancelled only decode's half of A's request. Make prefill's late transfer land in another tenant's response.",
		Preset: "late-write", Ops: 2,
		Hints: []string{
			"The lingering panel settles a deferred release: drained, timeout or error.",
			"A timeout frees the pages while prefill's transfer is still in flight.",
			"After the timeout, send a request that gets those pages.",
		},
		Lesson: "Decode gave up waiting and freed A's pages; the allocator handed them on, and prefill's transfer, still in flight, wrote A's KV into them. No door fix reaches this: the request fit everywhere. It is the second bug class SGLang's advice warns of.",
		goal:   lateLeak,
	},
}
