package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLaunchSuite(t *testing.T) {
	type want struct {
		pass   [3]bool
		detail [3]string
	}
	cases := map[string]want{
		"glm-launch-tests": {[3]bool{true, false, false}, [3]string{
			// Decode admits the 917,504-token prompts prefill rejects and
			// attends over all of them: what A and D left in the lowest
			// pages, past the request's own placeholder in page 0.
			"HTTP 200 with 917,504 pages of output: passes. Yet 4,095 pages of tenant A and 677,177 pages of tenant D are in it — this test cannot see that.",
			"Fails: r7 (tenant canary-2) got 4,095 pages of tenant A and 677,177 pages of tenant D — pages 2–4,096, 4,097–681,273.",
			"Fails: the probe is never answered — it waits in decode's DecodePreallocQueue for good: 1,048,569 + 512 reserved > 1,048,576 free. Decode's pool holds the context, but not the context plus SGLang's reserve for decoding.",
		}},
		"glm-remediated-tests": {[3]bool{true, true, true}, [3]string{
			"HTTP 200 with 917,504 pages of output: passes.",
			"Passes: r6 answered 200, r7 answered 200; no response held another tenant's content.",
			"Passes: the 1,048,569-token prompt was read in full (1,048,569 pages); both servers accept up to 1,048,569 tokens.",
		}},
	}
	for slug, w := range cases {
		t.Run(slug, func(t *testing.T) {
			res := replayPreset(t, slug).LaunchResults()
			assert.Len(t, res, 3)
			for i, r := range res {
				assert.True(t, r.Ran, r.ID)
				assert.Equal(t, w.pass[i], r.Pass, r.ID)
				assert.Equal(t, w.detail[i], r.Detail, r.ID)
			}
			assert.Equal(t, []int{5}, res[0].Requests)
			assert.Equal(t, []int{6, 7}, res[1].Requests)
			assert.Equal(t, []int{8}, res[2].Requests)
		})
	}
}

func TestLaunchNotRun(t *testing.T) {
	for _, r := range replayPreset(t, "glm-launch").LaunchResults() {
		assert.False(t, r.Ran, r.ID)
		assert.False(t, r.Pass, r.ID)
		assert.NotEmpty(t, r.What, r.ID)
	}
}

// The canary points at the leaked pages; a refusal is not a fault, a 200
// of nothing is. Decode's pool backs the demo's context here, so that the
// long canary (224 tokens) is in the window: prefill rejects it, decode
// reserves its 14 pages.
func TestLaunchCanaryFaults(t *testing.T) {
	cases := []struct {
		name   string
		cfg    func(*Config)
		pass   bool
		detail string
	}{
		{"fixed door refuses", func(c *Config) { c.Mode = Fixed }, true,
			"Passes: r1 answered 200, r2 answered 400; no response held another tenant's content."},
		{"scrubbed pages are a 200 of nothing", func(c *Config) { c.ScrubOnFree = true }, false,
			"Fails: r2 (tenant canary-2) got a 200 with 13 pages of nothing."},
		{"symmetric pools refuse", func(c *Config) { c.DecodePoolTokens = c.PoolTokens }, true,
			"Passes: r1 answered 200, r2 answered 400; no response held another tenant's content."},
		{"vulnerable leaks the first canary", func(c *Config) {}, false,
			"Fails: r2 (tenant canary-2) got 3 pages of tenant canary-1 — pages 2–4."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := DemoConfig()
			c.DecodePoolTokens = 256
			tc.cfg(&c)
			assert.True(t, c.Window().Contains(longContext(c)) == (c.DecodePoolTokens == 256))
			e := newEngine(t, c)
			for _, op := range LaunchSuite(c)[1:3] {
				assert.NoError(t, e.Apply(op))
			}
			r := e.LaunchResults()[1]
			assert.Equal(t, tc.pass, r.Pass)
			assert.Equal(t, tc.detail, r.Detail)
		})
	}
}
