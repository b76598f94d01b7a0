package model

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/permalink"
)

// TestHostileLinksLeaveTheDefaultScenario opens each link the page must
// refuse the way the page's OnNav does (DecodeLink, then ApplyLink): the
// refusal says why in the words the banner shows, and the session still
// shows the default scenario. The browser checks the banner itself for
// one refusal of each kind (e2e TestHostileLinks).
func TestHostileLinksLeaveTheDefaultScenario(t *testing.T) {
	demo, ok := engine.PresetBySlug("demo")
	require.True(t, ok)
	demoQuery := permalink.EncodeLink(permalink.LinkState{Preset: demo.Slug, Config: demo.Config, Ops: demo.Ops})
	// The demo's link with one parameter replaced or added.
	with := func(k, v string) string {
		q, err := url.ParseQuery(demoQuery)
		require.NoError(t, err)
		if !q.Has(k) || k == "op" {
			return demoQuery + "&" + k + "=" + v
		}
		return strings.Replace(demoQuery, k+"="+q.Get(k), k+"="+v, 1)
	}
	heavy := engine.Config{ContextTokens: engine.MaxContextTokens, PoolTokens: engine.MaxPoolTokens / 4, DecodePoolTokens: engine.MaxPoolTokens * 3 / 4,
		PageTokens: 1, Mode: engine.Vulnerable, Allocator: engine.Sorted, Cancel: engine.CancelBoth}
	var heavyOps []engine.Op
	for _, tenant := range []string{"A", "B", "C"} {
		heavyOps = append(heavyOps, engine.SendOp(engine.Request{Tenant: tenant, PromptTokens: 3_000_000, Content: "x"}))
	}
	heavyWork := engine.ReplayWork(heavy, heavyOps)
	require.Greater(t, heavyWork, int64(engine.MaxReplayWork), "decode admits each 3,000,000-token prompt and reserves a page per token")
	events := NewSession()
	require.NoError(t, events.LoadPreset("demo"))

	cases := []struct{ name, query, says string }{
		{"unknown version", with("v", "9"), `unknown link version "9": this playground reads versions 1 to 4`},
		{"no version", strings.TrimPrefix(demoQuery, "v=4&"), `unknown link version ""`},
		{"garbage", "%%%", `unknown parameter "%%%"`},
		{"bad escape", with("pool", "%zz"), `parameter "pool" is not properly escaped`},
		{"unknown preset", with("preset", "nope"), `unknown preset "nope"`},
		{"negative pool", with("pool", "-5"), `parameter pool="-5": must be a whole number`},
		{"enormous pool", with("pool", "99999999999999"), `parameter pool="99999999999999": must be a whole number`},
		{"pool zero", with("pool", "0"), "the link's settings are not valid: prefill pool size 0"},
		{"twice", demoQuery + "&pool=9", `parameter "pool" appears twice`},
		{"bad request", with("op", "s,A,many,-,x"), `request 3 in the link: prompt length "many"`},
		{"step past the end", with("step", "999"), "the link's step 999 is past the run's " + strconv.Itoa(events.Steps()) + " events"},
		{"settle of nothing", with("op", "x,1,drained"), "the link's run cannot be replayed"},
		{"201 requests", demoQuery + strings.Repeat("&op=s,A,1,-,x", 199), "the link has more than 200 requests"},
		{"5,000 requests", demoQuery + strings.Repeat("&op=s,A,1,-,x", 5000), "bytes long; at most 16,384 are read"},
		{"door of no state", with("door", "finished"), `the link's settings are not valid: what the door retires "finished": must be "none", "all" or states among rejected, errored, aborted and cancelled joined by dots`},
		{"allocator of no policy", with("alloc", "best"), `the link's settings are not valid: allocator "best": must be "sorted", "lifo" or "fifo"`},
		{"allocator in a version 1 link", "v=1&preset=demo&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=both&scrub=0&op=s,A,8,-,x&alloc=fifo",
			`parameter "alloc" is new in link version 2`},
		{"gateway of no mode", with("gw", "maybe"), `the link's settings are not valid: AI gateway "maybe": must be "off", "alert" or "block"`},
		{"writer check of no switch", with("wcheck", "2"), `parameter wcheck="2": must be 0 or 1`},
		{"too many pages", permalink.EncodeLink(permalink.LinkState{Config: heavy, Ops: heavyOps}),
			"would touch " + engine.Thousands(heavyWork) + " pages; a link may ask for at most " + engine.Thousands(engine.MaxReplayWork)},
	}
	want := NewSession().Response()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSession()
			l, err := DecodeLink(c.query)
			if err == nil {
				err = s.ApplyLink(l)
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.says)
			assert.Less(t, len(err.Error()), 300, "the banner quotes at most a clip of the link")
			assert.Equal(t, want, s.Response(), "the default scenario stays")
		})
	}
}
