package e2e

// What the page must show for each preset, written out by hand: the one
// place to update when a preset's sizes or wording change. Nothing here is
// computed by the engine or the UI, so a regression in either shows up as
// a difference from these literals.
//
// Pool notation, one token per #grid cell in order, "×N" repeats a token:
//
//	.    free          A+   allocated, mostly tenant A
//	A~   stale (freed, keeps A's KV)
//	A!   a leaked page of A; A!7 a range cell holding 7 leaked pages

const noRequestYet = "No request sent yet."

const upstreamVerdict = "Errored with 500: Decode transfer failed for request rank=0 decode_req.req.rid='r2' decode_req.req.bootstrap_room=2"

// stepSpan is what steps From..To (inclusive) of a run show.
type stepSpan struct {
	From, To        int
	Status, Verdict string
	Pool            string
}

// presetWant is one preset's run: its length, what the live region says at
// the latest step, and the steps that tests visit.
type presetWant struct {
	Events   int
	Announce string
	Steps    []stepSpan
}

// Every preset runs on two servers (README "What it reproduces"): #grid is
// decode's pool, where a leak lands. Every step of each run is pinned.
var presetsWant = map[string]presetWant{
	// The demo: prefill's pool 8 pages of 16 tokens, decode's 9; A 120
	// tokens, B 125, which prefill rejects and decode admits. Decode reserves
	// 8 pages for B (19), prefill writes one placeholder token into the first
	// (22), and decode attends over all 125 positions: A's 7 stale pages.
	"demo": {Events: 24, Announce: "7 pages of tenant A leaked to tenant B", Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×9"},
		{5, 9, "—", noRequestYet, "A+×8 ."},
		{10, 11, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A+×8 ."},
		{12, 16, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A~×8 ."},
		{17, 18, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A+×8 ."},
		{19, 21, "200", "OK: HTTP 200 with tenant A's own 8 pages", "B+ A+×7 ."},
		{22, 23, "200", demoLeakVerdict, "B+ A!×7 ."},
		{24, 24, "200", demoLeakVerdict, "B~ A!×7 ."},
	}},
	// The fixed door: B gets 400 and nothing is allocated on either server.
	"demo-fixed": {Events: 16, Announce: "Request 2 from tenant B: HTTP 400. Rejected with 400 before any page was allocated", Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×9"},
		{5, 9, "—", noRequestYet, "A+×8 ."},
		{10, 11, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A+×8 ."},
		{12, 15, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A~×8 ."},
		{16, 16, "400", "Rejected with 400 before any page was allocated", "A~×8 ."},
	}},
	// SGLang's door (#38935): prefill's half is retired at its door, but
	// decode admitted B, so it reserves 8 pages (17) for KV that never comes;
	// its receiver times out and the client gets decode's 500 (19), unread.
	"demo-upstream": {Events: 20, Announce: "Request 2 from tenant B: HTTP 500. " + upstreamVerdict, Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×9"},
		{5, 9, "—", noRequestYet, "A+×8 ."},
		{10, 11, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A+×8 ."},
		{12, 16, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A~×8 ."},
		{17, 18, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A+×8 ."},
		{19, 19, "500", upstreamVerdict, "A+×8 ."},
		{20, 20, "500", upstreamVerdict, "A~×8 ."},
	}},
	// Decode's pool as small as prefill's: both servers reject B's 125
	// tokens; decode reserves 1 page for its placeholder (17) and answers 400.
	"symmetric": {Events: 24, Announce: "Request 2 from tenant B: HTTP 400. Rejected with 400 by decode after it ran: its own intake had rejected the prompt too, so it reserved 1 page for its placeholder and attended over its own 1 position only; no other tenant's KV was read", Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×8"},
		{5, 9, "—", noRequestYet, "A+×8"},
		{10, 11, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A+×8"},
		{12, 16, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A~×8"},
		{17, 18, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A+ A~×7"},
		{19, 21, "200", "OK: HTTP 200 with tenant A's own 8 pages", "B+ A~×7"},
		{22, 23, "400", "Rejected with 400 by decode after it ran: its own intake had rejected the prompt too, so it reserved 1 page for its placeholder and attended over its own 1 position only; no other tenant's KV was read", "B+ A~×7"},
		{24, 24, "400", "Rejected with 400 by decode after it ran: its own intake had rejected the prompt too, so it reserved 1 page for its placeholder and attended over its own 1 position only; no other tenant's KV was read", "B~ A~×7"},
	}},
	// 512 cells of 2,048 decode pages (1,048,576 in all): A holds 0–4,095,
	// D 4,096–681,272; B's 900,000 pages start at page 0 (merge_and_sort_free),
	// prefill writes its first, and decode reads A's 4,095 other pages and
	// D's 677,177: range cells count their leaked pages (A!2047: page 0 is B's).
	"glm-launch": {Events: 38, Announce: "4,095 pages of tenant A and 677,177 pages of tenant D leaked to tenant B", Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×512"},
		{5, 9, "—", noRequestYet, "A+×2 .×510"},
		{10, 11, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A+×2 .×510"},
		{12, 16, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A~×2 .×510"},
		{17, 21, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A~×2 D+×331 .×179"},
		{22, 23, "200", "OK: HTTP 200 with tenant D's own 677,177 pages", "A~×2 D+×331 .×179"},
		{24, 25, "200", "OK: HTTP 200 with tenant D's own 677,177 pages", "A~×2 D~×331 .×179"},
		{26, 30, "400", "Rejected with 400 by the API: 1,100,000-token prompt is longer than the advertised context", "A~×2 D~×331 .×179"},
		{31, 35, "400", "Rejected with 400 by the API: 1,100,000-token prompt is longer than the advertised context", "A+×2 D+×331 B+×107 .×72"},
		{36, 37, "200", "LEAK: 4,095 pages of tenant A and 677,177 pages of tenant D returned to tenant B with HTTP 200 — decode attended over 900,000 positions; prefill wrote 1", "A!2047 A!2048 D!2048×330 D!1337 B+×107 .×72"},
		{38, 38, "200", "LEAK: 4,095 pages of tenant A and 677,177 pages of tenant D returned to tenant B with HTTP 200 — decode attended over 900,000 positions; prefill wrote 1", "A!2047 A!2048 D!2048×330 D!1337 .×179"},
	}},
	// The same pool, patched and with prefill's pool raised: B's 900,000
	// tokens are written in full (33) and read, its own.
	"glm-remediated": {Events: 38, Announce: "Request 4 from tenant B: HTTP 200. OK: HTTP 200 with tenant B's own 900,000 pages", Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×512"},
		{5, 9, "—", noRequestYet, "A+×2 .×510"},
		{10, 11, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A+×2 .×510"},
		{12, 16, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A~×2 .×510"},
		{17, 21, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A~×2 D+×331 .×179"},
		{22, 23, "200", "OK: HTTP 200 with tenant D's own 677,177 pages", "A~×2 D+×331 .×179"},
		{24, 25, "200", "OK: HTTP 200 with tenant D's own 677,177 pages", "A~×2 D~×331 .×179"},
		{26, 30, "400", "Rejected with 400 by the API: 1,100,000-token prompt is longer than the advertised context", "A~×2 D~×331 .×179"},
		{31, 32, "400", "Rejected with 400 by the API: 1,100,000-token prompt is longer than the advertised context", "A+×2 D+×331 B+×107 .×72"},
		{33, 35, "400", "Rejected with 400 by the API: 1,100,000-token prompt is longer than the advertised context", "B+×440 .×72"},
		{36, 37, "200", "OK: HTTP 200 with tenant B's own 900,000 pages", "B+×440 .×72"},
		{38, 38, "200", "OK: HTTP 200 with tenant B's own 900,000 pages", "B~×440 .×72"},
	}},
	// Freed pages are zeroed (12): B's 200 carries 7 zeroed pages.
	"scrub": {Events: 24, Announce: "Request 2 from tenant B: HTTP 200. WRONG 200: tenant B's rejected request was answered with 7 zeroed pages — no foreign content, but a failure reported as success", Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×9"},
		{5, 9, "—", noRequestYet, "A+×8 ."},
		{10, 11, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A+×8 ."},
		{12, 16, "200", "OK: HTTP 200 with tenant A's own 8 pages", ".×9"},
		{17, 21, "200", "OK: HTTP 200 with tenant A's own 8 pages", "B+×8 ."},
		{22, 23, "200", "WRONG 200: tenant B's rejected request was answered with 7 zeroed pages — no foreign content, but a failure reported as success", "B+×8 ."},
		{24, 24, "200", "WRONG 200: tenant B's rejected request was answered with 7 zeroed pages — no foreign content, but a failure reported as success", ".×9"},
	}},
	// Decode holds A's 8 pages until ABORT_ACK, so B gets 8–15.
	"abort-one-half": {Events: 21, Announce: "Request 2 from tenant B: HTTP 200. OK: HTTP 200 with tenant B's own 8 pages", Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×16"},
		{5, 8, "—", noRequestYet, "A+×8 .×8"},
		{9, 13, cancelledStatus, abortHeld, "A+×8 .×8"},
		{14, 18, cancelledStatus, abortHeld, "A+×8 B+×8"},
		{19, 20, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B+×8"},
		{21, 21, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B~×8"},
	}},
	// Both halves cancelled: A's pages are released at once (9); B gets the
	// never-used 8–15 from free_pages.
	"abort-both": {Events: 22, Announce: "Request 2 from tenant B: HTTP 200. OK: HTTP 200 with tenant B's own 8 pages", Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×16"},
		{5, 8, "—", noRequestYet, "A+×8 .×8"},
		{9, 9, "—", noRequestYet, ".×16"},
		{10, 14, cancelledStatus, "Cancelled by the client at prefill.transfer; every page released", ".×16"},
		{15, 19, cancelledStatus, "Cancelled by the client at prefill.transfer; every page released", ".×8 B+×8"},
		{20, 21, "200", "OK: HTTP 200 with tenant B's own 8 pages", ".×8 B+×8"},
		{22, 22, "200", "OK: HTTP 200 with tenant B's own 8 pages", ".×8 B~×8"},
	}},
	// At 9–18 decode still holds A's pages (the grid shows them), so the
	// verdict says so. The timeout (21) frees A's unwritten pages (23); C gets
	// them from merge_and_sort_free (28), and A's late transfer lands over C's
	// KV (32).
	"late-write": {Events: 37, Announce: "8 pages of tenant A leaked to tenant C", Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×16"},
		{5, 8, "—", noRequestYet, "A+×8 .×8"},
		{9, 13, cancelledStatus, abortHeld, "A+×8 .×8"},
		{14, 18, cancelledStatus, abortHeld, "A+×8 B+×8"},
		{19, 20, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B+×8"},
		{21, 22, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B~×8"},
		{23, 27, "200", "OK: HTTP 200 with tenant B's own 8 pages", ".×8 B~×8"},
		{28, 31, "200", "OK: HTTP 200 with tenant B's own 8 pages", "C+×8 B~×8"},
		{32, 34, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B~×8"},
		{35, 37, "200", lateWriteVerdict, "A!×8 B~×8"},
	}},
	// The drain (24) writes A's own held pages; C then gets them (29).
	"late-write-drained": {Events: 36, Announce: "Request 3 from tenant C: HTTP 200. OK: HTTP 200 with tenant C's own 8 pages", Steps: []stepSpan{
		{1, 4, "—", noRequestYet, ".×16"},
		{5, 8, "—", noRequestYet, "A+×8 .×8"},
		{9, 13, cancelledStatus, abortHeld, "A+×8 .×8"},
		{14, 18, cancelledStatus, abortHeld, "A+×8 B+×8"},
		{19, 20, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B+×8"},
		{21, 23, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B~×8"},
		{24, 28, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A~×8 B~×8"},
		{29, 30, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B~×8"},
		{31, 33, "200", "OK: HTTP 200 with tenant B's own 8 pages", "C+×8 B~×8"},
		{34, 35, "200", "OK: HTTP 200 with tenant C's own 8 pages", "C+×8 B~×8"},
		{36, 36, "200", "OK: HTTP 200 with tenant C's own 8 pages", "C~×8 B~×8"},
	}},
}

const (
	// #status of a cancelled request: its client went away, so no HTTP
	// status reached it (the log records 499, the simulation's code).
	cancelledStatus = "—"
	// r1 of the abort presets while decode holds its pages.
	abortHeld = "Cancelled by the client at prefill.transfer: decode still holds 8 pages, waiting for the prefill half's ABORT_ACK"
	// tenant C's response in the late-write preset.
	lateWriteVerdict = "LEAK: 8 pages of tenant A returned to tenant C with HTTP 200 — written late into its own pages by r1's prefill half after a deferred-release timeout"
)

// The demo side by side: each door's last response.
const (
	demoDifference      = "vulnerable: 200 + 7 leaked pages; fixed: 400, nothing allocated"
	demoVulnerableFinal = demoLeakVerdict
	demoFixedFinal      = "Rejected with 400 before any page was allocated"
)

// glm-launch, then tenant A sends 1,000 tokens (TestRealScalePreset): A
// gets 1,000 pages in the cell of pages 899,072–901,119 (past the pages B
// held), and the leak was the previous response's.
var glmLaunchThenA1000 = stepSpan{Status: "200", Verdict: "OK: HTTP 200 with tenant A's own 1,000 pages", Pool: "A~×2 D~×331 .×106 A~ .×72"}
