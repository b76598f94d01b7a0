package permalink

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

func TestPermalinkRoundTripsEveryPreset(t *testing.T) {
	presets := engine.Presets()
	require.NotEmpty(t, presets)
	for _, p := range presets {
		t.Run(p.Slug, func(t *testing.T) {
			in := LinkState{Preset: p.Slug, Config: p.Config, Ops: p.Ops, Step: 3}
			out, err := DecodeLink(EncodeLink(in), nil)
			require.NoError(t, err)
			assert.Equal(t, in, out)
		})
	}
}

func TestPermalinkEscapesHostileText(t *testing.T) {
	r := engine.Request{Tenant: "a,b&c=d", PromptTokens: 5, Content: `<img src=x onerror=alert(1)>,%;#`, CancelAt: engine.StageDecodeRunning}
	in := LinkState{Config: engine.DemoConfig(), Ops: []engine.Op{engine.SendOp(r), engine.SettleOp(1, engine.OutcomeTimeout)}}
	raw := EncodeLink(in)
	assert.NotContains(t, raw, "<img")
	out, err := DecodeLink(raw, nil)
	require.NoError(t, err)
	assert.Equal(t, in, out)
}

func TestPermalinkDemoExample(t *testing.T) {
	p, _ := engine.PresetBySlug("demo")
	c := p.Config
	assert.Equal(t,
		fmt.Sprintf("v=4&preset=demo&ctx=%d&pool=%d&dpool=%d&page=%d&reserve=%d&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&op=s,A,%d,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,%d,-,summarise+my+notes",
			c.ContextTokens, c.PoolTokens, c.DecodePoolTokens, c.PageTokens, c.ReservedDecodeTokens, engine.DemoPromptA, engine.DemoPromptB),
		EncodeLink(LinkState{Preset: "demo", Config: p.Config, Ops: p.Ops}))
	st := LinkState{Preset: "demo", Config: p.Config, Ops: p.Ops}
	assert.Equal(t, "v="+Version+"&"+RunQuery(st)+"&embed=1", EncodeLink(st, "embed=1"), "the view's keys follow the run's")
	assert.Equal(t, "v=4&tab=1&compare=1", EncodeLink(LinkState{Tab: true}, "compare=1"), "a run kept in the tab: only the view goes with it")
}

// Decode's pool is its own key: it round-trips, and the engine's bounds on
// it (and on both pools together) are the link's.
func TestPermalinkCarriesDecodesPool(t *testing.T) {
	for _, dpool := range []int{1, 16, 144, 1_048_576, engine.MaxPoolTokens - 128} {
		c := engine.DemoConfig()
		c.DecodePoolTokens = dpool
		raw := EncodeLink(LinkState{Config: c})
		assert.Contains(t, raw, "&dpool="+strconv.Itoa(dpool)+"&")
		if dpool < c.PageTokens { // the page is at most the smaller pool
			_, err := DecodeLink(raw, nil)
			assert.ErrorContains(t, err, "page size 16: must be between 1 and 1 tokens (at most the smaller pool)")
			continue
		}
		st, err := DecodeLink(raw, nil)
		require.NoError(t, err, raw)
		assert.Equal(t, c, st.Config)
		assert.Empty(t, st.Migrated, "a version 4 link is read as it is")
	}
	_, err := DecodeLink("v=4&pool=4194304&dpool=16&page=1", nil)
	assert.ErrorContains(t, err, "the two pools hold 4,194,320 pages together; at most 4,194,304")
}

func TestPermalinkRefusesHostileLinks(t *testing.T) {
	manyOps := "v=4" + strings.Repeat("&op=s,A,1,-,x", MaxLinkOps+1)
	cases := map[string]struct{ raw, msg string }{
		"unknown version":  {"v=9&ctx=16", "unknown link version"},
		"no version":       {"ctx=16", "unknown link version"},
		"garbage":          {"%%%&&==", "unknown parameter"},
		"unknown key":      {"v=4&foo=1", "unknown parameter"},
		"negative":         {"v=4&pool=-5", "whole number"},
		"enormous":         {"v=4&pool=99999999999999", "whole number"},
		"out of range":     {"v=4&pool=5000000", "not valid"},
		"decode's pool":    {"v=4&dpool=5000000", "decode pool size 5,000,000: must be between 1 and 4,194,304 tokens"},
		"no decode pool":   {"v=4&dpool=0", "decode pool size 0"},
		"bad mode":         {"v=4&mode=evil", "not valid"},
		"bad allocator":    {"v=4&alloc=newest", "not valid"},
		"bad scrub":        {"v=4&scrub=yes", "0 or 1"},
		"duplicate":        {"v=4&pool=8&pool=9", "twice"},
		"duplicate slot":   {"v=2&slot=8&slot=8", "twice"},
		"duplicate view":   {"v=4&embed=1&embed=1", "twice"},
		"thousands of ops": {manyOps, "at most"},
		"megabyte":         {"v=4&op=s,A,1,-," + strings.Repeat("x", 1<<20), "at most"},
		"bad op":           {"v=4&op=q,1", "must be"},
		"bad tokens":       {"v=4&op=s,A,lots,-,x", "not a whole number"},
		"bad tenant":       {"v=4&op=s,,5,-,x", "tenant name is empty"},
		"bad stage":        {"v=4&op=s,A,5,nowhere,x", "cancel stage"},
		"bad settle":       {"v=4&op=x,zero,drained", "not a request number"},
		// Two pools of 2Mi one-token pages, four prompts that fit both:
		// 8,000,004 pages, past the bound.
		"too much work": {"v=4&ctx=4194304&pool=2097152&dpool=2097152&page=1" + strings.Repeat("&op=s,A,2000000,-,x", 4),
			"would touch"},
		// The schema's own changes.
		"bad reserve":        {"v=4&reserve=-1", "whole number"},
		"reserve too large":  {"v=4&reserve=5000000", "decode's reserved tokens 5,000,000: must be between 0 and 4,194,304 tokens"},
		"reserve in v3":      {"v=3&reserve=32", `parameter "reserve" is new in link version 4`},
		"slot in version 4":  {"v=4&slot=8", `parameter "slot" is gone in link version 3`},
		"slot in version 3":  {"v=3&slot=8", `parameter "slot" is gone in link version 3: decode reserves the pages of the prompt as it sees it`},
		"slot beside dpool":  {"v=3&ctx=256&pool=128&dpool=144&page=16&slot=8", `parameter "slot" is gone in link version 3`},
		"dpool in version 2": {"v=2&ctx=256&pool=128&dpool=144&page=16&slot=8", `parameter "dpool" is new in link version 3`},
		"dpool in version 1": {"v=1&dpool=144", `parameter "dpool" is new in link version 3`},
		"alloc in version 1": {"v=1&alloc=fifo", `parameter "alloc" is new in link version 2`},
		"tab in version 1":   {"v=1&tab=1", `parameter "tab" is new in link version 2`},
		"bad slot":           {"v=2&ctx=256&slot=lots", "parameter slot: must be a whole number of pages"},
		"no slot":            {"v=2&ctx=256&slot=0", "parameter slot: must be a whole number of pages"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeLink(c.raw, nil)
			require.Error(t, err)
			assert.NotErrorIs(t, err, ErrNoState)
			assert.Contains(t, err.Error(), c.msg)
			assert.Less(t, len(err.Error()), 300, "banner text stays short")
		})
	}
}

// The view keys are handed to the page as they come, unescaped, and carry
// no state; the page's refusal of one is the link's, and the ones before
// it are read even when the run is refused.
func TestPermalinkHandsOnTheViewKeys(t *testing.T) {
	var got []string
	view := func(key, val string) error {
		got = append(got, key+"="+val)
		if val == "bad" {
			return errors.New("refused: " + key)
		}
		return nil
	}
	for raw, want := range map[string][]string{"": nil, "embed=1&ro=1": {"embed=1", "ro=1"}, "theme=%64ark&tour=2": {"theme=dark", "tour=2"}} {
		got = nil
		_, err := DecodeLink(raw, view)
		assert.ErrorIs(t, err, ErrNoState, raw)
		assert.Equal(t, want, got, raw)
	}

	got = nil
	_, err := DecodeLink("v=4&compare=1&pool=x&theme=bad", view)
	assert.ErrorContains(t, err, "parameter pool=")
	assert.Equal(t, []string{"compare=1"}, got, "the keys before the refusal, and no more")
	got = nil
	_, err = DecodeLink("v=4&theme=bad&pool=x", view)
	assert.EqualError(t, err, "refused: theme", "the first refusal in the link's order")
	_, err = DecodeLink("v=9&embed=1&view=bad", nil)
	assert.ErrorContains(t, err, "unknown link version", "nil passes over the view keys")
}

func FuzzDecodeLink(f *testing.F) {
	for _, p := range engine.Presets() {
		f.Add(EncodeLink(LinkState{Preset: p.Slug, Config: p.Config, Ops: p.Ops}))
	}
	f.Add("v=1&op=s,%ZZ,1,-,x")
	f.Add("v=2&preset=demo&ctx=256&pool=128&page=16&slot=8&op=s,A,120,-,x&op=s,B,200,-,y") // one pool
	f.Add("v=3&ctx=256&pool=128&dpool=128&page=16&slot=8")                                 // slot where v3 refuses it
	f.Add("v=3&ctx=256&pool=128&dpool=128&page=16&op=s,A,120,-,x&op=s,B,125,-,y")          // a v3 run, migrated
	f.Fuzz(func(t *testing.T, raw string) {
		st, err := DecodeLink(raw, nil)
		if err != nil || st.Tab {
			return
		}
		_, _ = engine.Replay(st.Config, st.Ops) // must not panic or hang: the work is bounded
	})
}

// A send keeps max_new_tokens when the request sent it, so the API's total
// check (_validate_one_request) replays the same; older five-field ops read
// as not sent.
func TestLinkOpMaxNewTokens(t *testing.T) {
	r := engine.Request{Tenant: "B", PromptTokens: 125, Content: "x", MaxNewTokens: 200}
	raw := encodeOp(engine.SendOp(r))
	assert.Equal(t, "s,B,125,-,x,200", raw)
	op, err := decodeOp(raw)
	require.NoError(t, err)
	assert.Equal(t, r, *op.Send)
	op, err = decodeOp("s,B,125,-,x")
	require.NoError(t, err)
	assert.Zero(t, op.Send.MaxNewTokens)
	for _, bad := range []string{"s,B,125,-,x,0", "s,B,125,-,x,-3", "s,B,125,-,x,12345678901", "s,B,125,-,x,ten"} {
		_, err := decodeOp(bad)
		assert.Error(t, err, bad)
	}
}
