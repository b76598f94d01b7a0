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

var presetsWant = map[string]presetWant{
	"demo": {Events: 20, Announce: "7 pages of tenant A leaked to tenant B", Steps: []stepSpan{
		{1, 3, "—", noRequestYet, ".×8"},
		{4, 7, "—", noRequestYet, "A+×8"},
		{8, 9, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A+×8"},
		{10, 13, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A~×8"},
		{14, 15, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A+×8"},
		{16, 17, "200", "OK: HTTP 200 with tenant A's own 8 pages", "B+ A+×7"},
		{18, 19, "200", "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200", "B+ A!×7"},
		{20, 20, "200", "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200", "B~ A!×7"},
	}},
	"demo-fixed": {Events: 13, Announce: "Request 2 from tenant B: HTTP 400. Rejected with 400 before any page was allocated", Steps: []stepSpan{
		{6, 6, "—", noRequestYet, "A+×8"},
		{12, 12, "200", "OK: HTTP 200 with tenant A's own 8 pages", "A~×8"},
		{13, 13, "400", "Rejected with 400 before any page was allocated", "A~×8"},
	}},
	"glm-launch": {Events: 22, Announce: "7 pages of tenant A leaked to tenant B", Steps: []stepSpan{
		{5, 5, "—", noRequestYet, "A+×4 .×508"},
		{11, 11, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A~×4 .×508"},
		{22, 22, "200", "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200", "A!7 A~×3 .×508"},
	}},
	"glm-remediated": {Events: 22, Announce: "Request 3 from tenant B: HTTP 200. OK: HTTP 200 with tenant B's own 900,000 pages", Steps: []stepSpan{
		{11, 11, "200", "OK: HTTP 200 with tenant A's own 4,096 pages", "A~×2 .×510"},
		{22, 22, "200", "OK: HTTP 200 with tenant B's own 900,000 pages", "B~×226 .×286"},
	}},
	"scrub": {Events: 20, Announce: "Request 2 from tenant B: HTTP 200. WRONG 200: tenant B's rejected request was answered with 7 zeroed pages — no foreign content, but a failure reported as success", Steps: []stepSpan{
		{10, 10, "200", "OK: HTTP 200 with tenant A's own 8 pages", ".×8"},
		{20, 20, "200", "WRONG 200: tenant B's rejected request was answered with 7 zeroed pages — no foreign content, but a failure reported as success", ".×8"},
	}},
	"abort-one-half": {Events: 18, Announce: "Request 2 from tenant B: HTTP 200. OK: HTTP 200 with tenant B's own 8 pages", Steps: []stepSpan{
		{9, 9, "499", "Aborted by the client at prefill.transfer: decode still holds 8 pages, waiting for the prefill half", "A+×8 .×8"},
		{18, 18, "200", "OK: HTTP 200 with tenant B's own 8 pages", "A+×8 B~×8"},
	}},
	"abort-both": {Events: 18, Announce: "Request 2 from tenant B: HTTP 200. OK: HTTP 200 with tenant B's own 8 pages", Steps: []stepSpan{
		{9, 9, "499", "Aborted by the client at prefill.transfer; every page released", ".×16"},
		{18, 18, "200", "OK: HTTP 200 with tenant B's own 8 pages", "B~×8 .×8"},
	}},
}

// The demo side by side: each door's last response.
const (
	demoDifference      = "vulnerable: 200 + 7 leaked pages; fixed: 400, nothing allocated"
	demoVulnerableFinal = "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200"
	demoFixedFinal      = "Rejected with 400 before any page was allocated"
)

// glm-launch, then tenant A sends 1,000 tokens (TestRealScalePreset): A's
// pages reuse freed ones, and the leak was the previous response's.
var glmLaunchThenA1000 = stepSpan{Status: "200", Verdict: "OK: HTTP 200 with tenant A's own 1,000 pages", Pool: "A~×4 .×508"}
