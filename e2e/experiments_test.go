package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/web/model"
)

// The article's three questions as experiments (issue 13), each seen to
// fail and to pass in the browser. One browser serves the table.

// openShort opens a preset by its short link and waits for its latest step.
func openShort(b *browser, site, slug string) pageView {
	b.t.Helper()
	b.Open(site + "?v=4&preset=" + slug)
	return waitShows(b, slug, expectAt(b.t, slug, 0))
}

// openVerdict opens a preset of the incident by its short link and waits
// for its verdict (their pinned runs are presets_expected_test.go's).
func openVerdict(b *browser, site, slug, verdict string) {
	b.t.Helper()
	b.Open(site + "?v=4&preset=" + slug)
	waitVerdict(b, verdict)
}

// metric is one #metrics row's value.
func metric(b *browser, key string) string {
	b.t.Helper()
	return textOf(b, fmt.Sprintf(`#metrics [data-metric=%q] dd`, key))
}

// waitVerdict waits until #verdict reads v.
func waitVerdict(b *browser, v string) {
	b.t.Helper()
	waitFor(b, "verdict "+v, fmt.Sprintf(`(document.querySelector("#verdict") || {}).textContent === %s`, jsLit(v)))
}

// doorBoxes lists the door's checked boxes.
func doorBoxes(b *browser) string {
	b.t.Helper()
	return evalJS[string](b, `[...document.querySelectorAll("#door input[type=checkbox]:checked")].map(i => i.dataset.state).join(".")`)
}

func TestExperiments(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	const demoLeak = "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 125 positions; prefill wrote 1"
	cases := []struct {
		name string
		run  func(t *testing.T, b *browser)
	}{
		{"door presets: vulnerable leaks, fixed refuses", func(t *testing.T, b *browser) {
			openVerdict(b, site, "demo", demoLeak)
			assert.Equal(t, "errored.aborted.cancelled", doorBoxes(b), "the vulnerable mode retires all but the pending rejection")
			clickSel(b, "#door-preset-all")
			waitVerdict(b, "Rejected with 400 before any page was allocated")
			assert.Equal(t, "rejected.errored.aborted.cancelled", doorBoxes(b))
			assert.Contains(t, readView(b).Search, "&door=all&")
			clickSel(b, "#door-preset-none")
			waitVerdict(b, demoLeak)
			assert.Equal(t, "", doorBoxes(b))
			clickSel(b, "#door-rejected") // one box, by a real click
			waitVerdict(b, "Rejected with 400 before any page was allocated")
			assert.Contains(t, readView(b).Search, "&door=rejected&")
		}},
		{"errored: decode not told leaks; retired answers 500", func(t *testing.T, b *browser) {
			openShort(b, site, "door-errored")
			// The failed transfer wrote nothing: decode attends over A's 120 stale positions.
			assert.Equal(t, "LEAK: 8 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 120 positions; prefill wrote 0", textOf(b, "#verdict"))
			clickSel(b, "#door-errored")
			waitVerdict(b, "Errored with 500: KV transfer failed (KVPoll.Failed): Internal Server Error")
			assert.Equal(t, "500", textOf(b, "#status"))
		}},
		{"aborted: pages held, C waits; retired frees them", func(t *testing.T, b *browser) {
			openShort(b, site, "door-aborted")
			assert.Equal(t, "8", metric(b, "pages-unretired"))
			assert.Equal(t, "1", metric(b, "waiting"))
			clickSel(b, "#door-aborted")
			waitVerdict(b, "OK: HTTP 200 with tenant C's own 3 pages")
			assert.Equal(t, "0", metric(b, "pages-unretired"))
		}},
		{"cancelled: runs for nobody; retired costs nothing", func(t *testing.T, b *browser) {
			openShort(b, site, "door-cancelled")
			assert.Equal(t, "8", metric(b, "ghost-pages"))
			clickSel(b, "#door-cancelled")
			waitFor(b, "no ghost pages", `document.querySelector('#metrics [data-metric="ghost-pages"] dd').textContent === "0"`)
			assert.Equal(t, "OK: HTTP 200 with tenant B's own 3 pages", textOf(b, "#verdict"))
		}},
		{"writer check: 500 instead of a leak, a read per page", func(t *testing.T, b *browser) {
			openVerdict(b, site, "demo", demoLeak)
			wc := mustPreset(t, "writer-check")
			checked := replayed(t, wc.Config, wc.Ops)
			last, _ := checked.LastResponse()
			clickSel(b, "#writer-check")
			waitVerdict(b, last.Verdict())
			assert.True(t, strings.HasPrefix(last.Verdict(), "Aborted with 500 before decode read anything: decode's writer check: page "), last.Verdict())
			assert.Equal(t, engine.Thousands(int64(checked.Metrics().WriterChecks)), metric(b, "writer-checks"))
			assert.Contains(t, readView(b).Search, "&wcheck=1&")
			clickSel(b, "#writer-check")
			waitVerdict(b, demoLeak)
			assert.NotContains(t, readView(b).Search, "wcheck")
		}},
		{"gateway: block, alert, off", func(t *testing.T, b *browser) {
			openShort(b, site, "gateway-block")
			assert.Equal(t, "block", valueOf(b, "#gateway"))
			assert.Equal(t, "1", metric(b, "gateway-blocks"))
			assert.Contains(t, textOf(b, "#gateway-hint"), "What it cannot see: in a real model leaked KV shows up as text conditioned on another tenant's context")
			setField(b, "#gateway", "alert")
			waitVerdict(b, demoLeak+" — the AI gateway raised an alert")
			assert.Equal(t, "200", textOf(b, "#status"))
			assert.Contains(t, readView(b).Search, "&gw=alert&")
			setField(b, "#gateway", "off")
			waitVerdict(b, demoLeak)
			assert.NotContains(t, readView(b).Search, "gw=")
		}},
		{"launch tests at launch: (a) passes, (b) and (c) fail", func(t *testing.T, b *browser) {
			openVerdict(b, site, "glm-launch", "LEAK: 4,095 pages of tenant A and 677,177 pages of tenant D returned to tenant B with HTTP 200 — decode attended over 900,000 positions; prefill wrote 1")
			// The run with the suite, as the engine replays it: r7 is canary-2.
			p := mustPreset(t, "glm-launch")
			e, err := engine.Replay(p.Config, append(append([]engine.Op(nil), p.Ops...), engine.LaunchSuite(p.Config)...))
			require.NoError(t, err)
			r7, ok := e.Response(7)
			require.True(t, ok, "the engine answers r7")
			require.Equal(t, "canary-2", r7.Tenant)
			clickSel(b, "#run-launch")
			waitFor(b, "the suite's grades", `document.querySelector("#launch-summary").textContent === "Launch tests: 1 of 3 passed."`)
			assert.Equal(t, []string{"status:pass", "canary:fail", "capacity:fail"}, launchResults(b))
			canary := e.LaunchResults()[1]
			require.Equal(t, engine.LaunchCanary, canary.ID)
			assert.Equal(t, canary.Detail, textOf(b, `#launch [data-test=canary] .detail`))
			assert.True(t, strings.HasPrefix(canary.Detail, "Fails: r7 (tenant canary-2) got 4,095 pages of tenant A and 677,177 pages of tenant D — pages "), canary.Detail)
			assert.Contains(t, readView(b).Search, "&op=s,canary-1,64,-,CANARY-1-k7Q2&")
			// Replayable: the address bar's link grades the same in a fresh load.
			b.Open(site + readView(b).Search)
			waitFor(b, "the replayed grades", `document.querySelector("#launch-summary").textContent === "Launch tests: 1 of 3 passed."`)
			// Each test's requests are in the run: show one in the log.
			clickSel(b, `#launch [data-test=canary] .launch-requests button:last-child`)
			waitFor(b, "r7's response selected", fmt.Sprintf(`document.querySelector("#step-pos").textContent.trim() === "Step %d of %d"`, r7.Step, e.Log().Len()))
			assert.Equal(t, "LEAK: 4,095 pages of tenant A and 677,177 pages of tenant D returned to tenant canary-2 with HTTP 200 — decode attended over 917,504 positions; prefill wrote 1", textOf(b, "#verdict"))
		}},
		{"launch tests after remediation: all pass", func(t *testing.T, b *browser) {
			openVerdict(b, site, "glm-remediated", "OK: HTTP 200 with tenant B's own 900,000 pages")
			clickSel(b, "#run-launch")
			waitFor(b, "the suite's grades", `document.querySelector("#launch-summary").textContent === "Launch tests: 3 of 3 passed."`)
			assert.Equal(t, []string{"status:pass", "canary:pass", "capacity:pass"}, launchResults(b))
		}},
		{"prometheus text", func(t *testing.T, b *browser) {
			lw := mustPreset(t, "late-write")
			late := replayed(t, lw.Config, lw.Ops)
			openVerdict(b, site, "late-write", lateWriteVerdict(t))
			text := evalJS[string](b, `document.querySelector("#prometheus").textContent`)
			for _, line := range []string{
				"# HELP sglang:decode_deferred_kv_release_total ",
				"# TYPE sglang:decode_deferred_kv_release_total counter\n",
				`sglang:decode_deferred_kv_release_total{outcome="drained"} 0` + "\n",
				`sglang:decode_deferred_kv_release_total{outcome="timeout"} 1` + "\n",
				`sglang:decode_deferred_kv_release_total{outcome="error"} 0` + "\n",
				"kvleak_leaked_responses_total " + strconv.Itoa(late.Metrics().LeakedResponses) + "\n",
				"kvleak_gateway_alerts_total 0\n",
				"kvleak_scrub_writes_total 0\n",
			} {
				assert.Contains(t, text, line)
			}
		}},
		{"timeline points open their presets", func(t *testing.T, b *browser) {
			openVerdict(b, site, "demo", demoLeak)
			assert.Equal(t, len(model.IncidentTimeline()), countAll(b, "#timeline li"))
			clickSel(b, `#timeline li[data-preset="glm-remediated-tests"] a`)
			waitFor(b, "the remediated launch tests", `document.querySelector("#preset").value === "glm-remediated-tests"`)
			waitFor(b, "their grades", `document.querySelector("#launch-summary").textContent === "Launch tests: 3 of 3 passed."`)
		}},
		{"axe on the experiments' panels", func(t *testing.T, b *browser) {
			openShort(b, site, "glm-launch-tests")
			// The page around them is TestAccessibility's.
			const panels = `{include: ["#door-section", "#gateway-section", "#launch", "#metrics-panel", "#prometheus-panel", "#timeline"]}`
			for _, v := range runAxeIn(b, axeSource(t), panels) {
				t.Errorf("axe: %s", v)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case opens its page in a tab of its own
			tc.run(t, newBrowser(t))
		})
	}
}

// launchResults is "<test>:<result>" per launch test, in order.
func launchResults(b *browser) []string {
	b.t.Helper()
	return evalJS[[]string](b, `[...document.querySelectorAll("#launch li[data-test]")].map(li => li.dataset.test + ":" + li.dataset.result)`)
}
