package challenge

import (
	"fmt"

	"kvleak/engine"
)

// Ladder is the challenges in order: challenge n is Ladder()[n-1]. Read
// it; do not change it.
func Ladder() []Challenge { return ladder }

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
		Goal:   "Tenant A left its flag, " + engine.DemoSecret + ", in decode's pool on the demo's servers. As tenant B, get it in a 200's body.",
		Preset: "demo", Ops: 1,
		Hints: []string{
			"Each server checks a prompt against its own pool; the prompt field's hint names both limits.",
			"Send B a prompt prefill rejects and decode admits.",
		},
		Lesson: "Prefill rejected B's prompt and sent one placeholder token; decode admitted it, reserved its pages and attended over them: A's stale KV. The door checks only finished(), so the answer was 200. That is the incident.",
		Miss:   "No response to tenant B carries tenant A's flag in a 200 yet.",
		goal:   readsFlag,
	},
	{
		Title:  "The shortest leak at GLM-5.3's launch",
		Goal:   "On GLM-5.3's launch settings, after A's and D's requests, read another tenant's KV with a 200, using the shortest prompt that can.",
		Preset: "glm-launch", Ops: 2,
		Hints: []string{
			"The leak's window is the prompt lengths prefill rejects and decode admits.",
			"It starts at prefill's max_req_input_len: min(context − 1, pool − 1) − 5.",
		},
		Lesson: "The window opens at prefill's max_req_input_len; one token less and prefill builds the whole prompt itself. A launch test at this edge would have found the gap.",
		Miss:   "No response has carried another tenant's KV in a 200 yet.",
		Near:   "Request r%d leaked, but a shorter prompt leaks too.",
		goal:   shortestLeak,
	},
	{
		Title:  "The last writer wins",
		Goal:   "Make tenant C read tenant B's KV in a 200.",
		Preset: "demo", Ops: 1,
		Hints: []string{
			"A freed page keeps what was written into it last, and the sorted allocator hands out the lowest ids again.",
			"Have B write pages with a prompt both servers accept, then send C a prompt in the window.",
		},
		Lesson: "free() only puts page ids back: a page holds its last writer's KV. B wrote over A's pages, so C read B's. Who leaks is whoever used the pages last.",
		Miss:   "No response to tenant C carries tenant B's KV in a 200 yet.",
		Near:   "Request r%d read another tenant's KV, but not B's: whose pages were written last?",
		goal:   readsWriter,
	},
	{
		Title:  "Scrub-on-free: a wrong 200 anyway",
		Goal:   "Freed pages are zeroed here. Get a 200 for a request whose rejection was pending.",
		Preset: "scrub", Ops: 1,
		Hints: []string{
			"Scrubbing clears pages; it does not change what the door lets through.",
			"Send a prompt prefill rejects and decode admits.",
		},
		Lesson: "Zeroing on free removes the other tenant's content, not the bug: a rejected request still gets a 200, for nothing, and every free costs a write per page.",
		Miss:   "No rejected request has been answered with a 200 yet.",
		goal:   wrongStatus,
	},
	{
		Title:  "A failed transfer nobody retires",
		Goal:   "The door retires rejections, not failed KV transfers. Read another tenant's KV in a 200 through a failed transfer.",
		Preset: "door-errored", Ops: 1,
		Hints: []string{
			"The request form's ending can make the transfer fail.",
			"Send a prompt both servers accept, whose transfer fails.",
		},
		Lesson: "Decode, never told of the failure, attended over pages prefill never wrote. A door has to retire every terminal state, the article's first question. (The simulation's illustration: SGLang answers a failed transfer with 500.)",
		Miss:   "No request has read another tenant's KV through a failed transfer yet.",
		Near:   "Request r%d's transfer failed and decode went on, but its pages held no other tenant's KV.",
		goal:   failedLeak,
	},
	{
		Title:    "Symmetric pools: can it leak?",
		Goal:     "The two servers' pools are the same size. Run the one experiment that decides whether any prompt can read another tenant's KV, then answer.",
		Question: "Can a prompt read another tenant's KV on these settings?",
		Preset:   "symmetric", Ops: 1,
		Hints: []string{
			"The leak needs decode to admit a prompt prefill rejects; each rejects every prompt at or over its own max_req_input_len.",
			"Probe the shortest prompt prefill rejects: if decode rejects it too, it rejects every longer one.",
		},
		Lesson: "Decode rejected the shortest prompt prefill rejects, so it rejects every prompt prefill does: it reads only its own placeholder and answers 400. The window is closed.",
		Miss:   "The run holds no experiment that decides it yet: send a prompt prefill rejects and see what decode does with it.",
		Near:   "Both servers rejected request r%d, but a shorter prompt prefill rejects might still pass decode: probe the shortest.",
		goal:   windowClosed,
	},
	{
		Title:  "The fixed door: a clean 400",
		Goal:   "The door is Cloudflare's patch. Send a prompt the vulnerable door would have leaked and get a 400 with nothing allocated on either server.",
		Preset: "demo-fixed", Ops: 1,
		Hints: []string{
			"A prompt longer than the context is refused by the API, not by the door.",
			"The pools are the demo's: the window is still open.",
		},
		Lesson: "The patched door reads the pending rejection and retires the request before any page is reserved: no stale page can be read, none was handed out.",
		Miss:   "No prompt in the leak's window has been refused with nothing allocated yet.",
		Near:   "Request r%d got its 400 with nothing allocated, but outside the leak's window: the vulnerable door would not have leaked it either.",
		goal:   cleanRefusal,
	},
	{
		Title:  "The writer check: what it catches and what it does not",
		Goal:   "Decode checks each page's last writer before it attends. In one run, get a read it stops (500) and a leak it lets through (a 200 with another tenant's KV).",
		Preset: "writer-check", Ops: 1,
		Free:  []string{"ctx", "pool", "dpool", "page", "alloc", "cancel"},
		Rules: "You may change the context length, the pools, the page size, the allocator and the router's cancel policy; the other settings stay as they start.",
		Hints: []string{
			"The check keeps one tag per page: a page passes when the request wrote any position of it.",
			"Make a reservation one page long: a page as large as prefill's pool, and decode's pool four pages, so that SGLang's max_new_tokens clamp leaves a two-page read room to decode.",
		},
		Lesson: "One tag per page: the placeholder made the page the request's own, and the stale positions after it went out with a 200. A check catches only what its granularity sees, the article's third question.",
		Miss:   "The check has stopped nothing and nothing has leaked past it yet.",
		Near:   "The check stopped request r%d. Now find a leak it lets through.",
		goal:   checkedBothWays,
	},
}
