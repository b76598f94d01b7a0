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

// The demo is the two-server one (issue 30): prefill's pool 8 pages of 16
// tokens, decode's 9; A 120 tokens, B 125, which prefill rejects and decode
// admits. Decode's grid shows its 9 pages. The other presets still read as
// the one-pool engine wrote them.
var presetsWant = map[string]presetWant{
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
	"demo-fixed": {Events: 16, Announce: "Request 2 from tenant B: HTTP 400. Rejected with 400 before any page was allocated", Steps: []stepSpan{
		{6, 6, "—", noRequestYet, "A+×8 ."},
		{12, 12, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A~×8 ."},
		{16, 16, "400", "Rejected with 400 before any page was allocated", "A~×8 ."},
	}},
	// 512 cells of about 1,330 pages; A holds 0–4,095, D 4,096–681,272
	// (cell 3 is mostly D's), and the last 7 pages are never written.
	"glm-launch": {Events: 32, Announce: "7 pages of tenant A leaked to tenant B", Steps: []stepSpan{
		{5, 5, "—", noRequestYet, "A+×4 .×508"},
		{11, 11, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A~×4 .×508"},
		{16, 16, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A~×3 D+×509"},
		{20, 20, "200", "OK: HTTP 200 with tenant D's own 677,177 pages", "A~×3 D~×509"},
		{22, 22, "400", "Rejected with 400 by the API: 1,100,000-token prompt is longer than the advertised context", "A~×3 D~×509"},
		{32, 32, "200", "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200", "A!7 A~×2 D~×509"},
	}},
	// 512 cells of about 3,984 pages: A 0–4,095, D 4,096–681,272, and B's
	// 900,000 pages after D's, from free_pages (no merge needed).
	"glm-remediated": {Events: 32, Announce: "Request 4 from tenant B: HTTP 200. OK: HTTP 200 with tenant B's own 900,000 pages", Steps: []stepSpan{
		{11, 11, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A~×2 .×510"},
		{16, 16, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A~ D+×170 .×341"},
		{32, 32, "200", "OK: HTTP 200 with tenant B's own 900,000 pages", "A~ D~×170 B~×226 .×115"},
	}},
	"scrub": {Events: 20, Announce: "Request 2 from tenant B: HTTP 200. WRONG 200: tenant B's rejected request was answered with 7 zeroed pages — no foreign content, but a failure reported as success", Steps: []stepSpan{
		{10, 10, "200", "OK: HTTP 200 with tenant A's own 8 pages", ".×8"},
		{20, 20, "200", "WRONG 200: tenant B's rejected request was answered with 7 zeroed pages — no foreign content, but a failure reported as success", ".×8"},
	}},
	"abort-one-half": {Events: 18, Announce: "Request 2 from tenant B: HTTP 200. OK: HTTP 200 with tenant B's own 8 pages", Steps: []stepSpan{
		{9, 9, cancelledStatus, abortHeld, "A+×8 .×8"},
		{18, 18, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B~×8"},
	}},
	// A's released pages wait in release_pages; B gets the never-used 8–15.
	"abort-both": {Events: 18, Announce: "Request 2 from tenant B: HTTP 200. OK: HTTP 200 with tenant B's own 8 pages", Steps: []stepSpan{
		{9, 9, cancelledStatus, "Cancelled by the client at prefill.transfer; every page released", ".×16"},
		{18, 18, "200", "OK: HTTP 200 with tenant B's own 8 pages", ".×8 B~×8"},
	}},
	// At step 15 decode still holds A's pages (the grid shows them), so the
	// verdict says so: the settle at 19 must not show before it happens.
	// abort-one-half, the timeout (19) frees A's unwritten pages (20); C
	// gets them from merge_and_sort_free, writes (26), and A's late
	// transfer lands over C's KV (27).
	"late-write": {Events: 31, Announce: "8 pages of tenant A leaked to tenant C", Steps: []stepSpan{
		{15, 15, cancelledStatus, abortHeld, "A+×8 B+×8"},
		{19, 19, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B~×8"},
		{20, 20, "200", "OK: HTTP 200 with tenant B's own 8 pages", ".×8 B~×8"},
		{26, 26, "200", "OK: HTTP 200 with tenant B's own 8 pages", "C+×8 B~×8"},
		{27, 27, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B~×8"},
		{31, 31, "200", lateWriteVerdict, "A!×8 B~×8"},
	}},
	// The drain (19) writes A's own held pages; C then overwrites them.
	"late-write-drained": {Events: 30, Announce: "Request 3 from tenant C: HTTP 200. OK: HTTP 200 with tenant C's own 8 pages", Steps: []stepSpan{
		{15, 15, cancelledStatus, abortHeld, "A+×8 B+×8"},
		{19, 19, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B~×8"},
		{20, 20, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A~×8 B~×8"},
		{30, 30, "200", "OK: HTTP 200 with tenant C's own 8 pages", "C~×8 B~×8"},
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
// gets pages 8–1,007 from free_pages (B's merge sorted every page back
// in), and the leak was the previous response's.
var glmLaunchThenA1000 = stepSpan{Status: "200", Verdict: "OK: HTTP 200 with tenant A's own 1,000 pages", Pool: "A~×3 D~×509"}
