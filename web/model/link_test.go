package model

import (
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
			out, err := DecodeLink(EncodeLink(in))
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
	out, err := DecodeLink(raw)
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
}

// The demo's link as version 3 wrote it (decode's pool 144 tokens, no
// budget, no clamp) opens, replays the run it was made with — B still
// reads A's seven stale pages — and says what changed.
func TestVersion3DemoLinkStillLeaks(t *testing.T) {
	const old = "v=3&preset=demo&ctx=256&pool=128&dpool=144&page=16&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&op=s,A,120,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,125,-,summarise+my+notes"
	st, err := DecodeLink(old)
	require.NoError(t, err)
	made := engine.DemoConfig()
	made.DecodePoolTokens, made.ReservedDecodeTokens = 144, 0
	want, changed := engine.MigrateV3(made, st.Ops)
	assert.Equal(t, want, st.Config)
	assert.Equal(t, 0, st.Config.ReservedDecodeTokens)
	assert.Greater(t, st.Config.DecodePoolTokens, 144, "decode's pool raised so that A and B are decoded")
	assert.Empty(t, st.Preset, "today's demo keeps a reserve of 32: the link is not it")

	s := NewSession()
	require.NoError(t, s.ApplyLink(st))
	r, ok := s.LastResponse()
	require.True(t, ok)
	assert.Equal(t, 200, r.Status)
	assert.Equal(t, 7, r.LeakedPages.Len(), "B reads A's seven stale pages")
	notice := s.Notice()
	assert.True(t, strings.HasPrefix(notice, "This link (version 3) was made with an earlier version of the playground. "), notice)
	assert.Contains(t, notice, changed)
	assert.Contains(t, notice, "decode's pool is raised from 144 to "+engine.Thousands(int64(want.DecodePoolTokens))+" tokens")
	assert.Contains(t, notice, "this run reserves 0 tokens")
	assert.True(t, strings.HasPrefix(s.AddressQuery(), "v=4&"), s.AddressQuery())
	again, err := DecodeLink(s.AddressQuery())
	require.NoError(t, err)
	assert.Equal(t, st.Config, again.Config, "the session's own link opens the same run")
	assert.Empty(t, again.Migrated)
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
			_, err := DecodeLink(raw)
			assert.ErrorContains(t, err, "page size 16: must be between 1 and 1 tokens (at most the smaller pool)")
			continue
		}
		st, err := DecodeLink(raw)
		require.NoError(t, err, raw)
		assert.Equal(t, c, st.Config)
		assert.Empty(t, st.Migrated, "a version 4 link is read as it is")
	}
	_, err := DecodeLink("v=4&pool=4194304&dpool=16&page=1")
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
			_, err := DecodeLink(c.raw)
			require.Error(t, err)
			assert.NotErrorIs(t, err, ErrNoState)
			assert.Contains(t, err.Error(), c.msg)
			assert.Less(t, len(err.Error()), 300, "banner text stays short")
		})
	}
}

func TestPermalinkWithoutState(t *testing.T) {
	for _, raw := range []string{"", "embed=1", "embed=1&ro=1"} {
		st, err := DecodeLink(raw)
		assert.ErrorIs(t, err, ErrNoState, raw)
		assert.Equal(t, strings.Contains(raw, "embed"), st.View.Embed)
	}
}

func TestApplyLinkReplaysOrChangesNothing(t *testing.T) {
	s := NewSession()
	st, err := DecodeLink("v=4&ctx=16&pool=8&dpool=8&page=1&reserve=0&mode=fixed&alloc=fifo&cancel=both&scrub=0&op=s,A,1,-,S&op=s,B,12,-,x&step=5")
	require.NoError(t, err)
	require.NoError(t, s.ApplyLink(st))
	assert.Equal(t, 5, s.step)
	r, _ := s.eng.LastResponse()
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, st, s.Link())
	assert.Empty(t, s.Notice(), "a version 4 link has nothing to say")

	before := s.eng
	st.Ops = append(st.Ops, engine.SettleOp(1, engine.OutcomeDrained))
	assert.Error(t, s.ApplyLink(st), "nothing lingers to settle")
	assert.Same(t, before, s.eng)
	st.Ops, st.Step = st.Ops[:2], 999
	assert.Error(t, s.ApplyLink(st))
	assert.Same(t, before, s.eng)
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
		st, err := DecodeLink(raw)
		if err != nil {
			return
		}
		s := NewSession()
		_ = s.ApplyLink(st) // must not panic or hang
	})
}

// A link that names only a preset opens the preset as it is now, in any
// version: no migration, nothing to say.
func TestPermalinkShortPresetForm(t *testing.T) {
	for _, v := range []string{"1", "2", "3", "4"} {
		st, err := DecodeLink("v=" + v + "&preset=glm-launch&step=4")
		require.NoError(t, err, v)
		p, _ := engine.PresetBySlug("glm-launch")
		assert.Equal(t, "glm-launch", st.Preset, v)
		assert.Equal(t, p.Config, st.Config, v)
		assert.Equal(t, p.Ops, st.Ops, v)
		assert.Equal(t, 4, st.Step, v)
		assert.Empty(t, st.Migrated, v)
	}
}

func TestLinkableBoundsFollowDecodeLink(t *testing.T) {
	s := NewSession()
	assert.True(t, s.Linkable())
	_, err := DecodeLink(s.Query(View{}))
	require.NoError(t, err)

	require.NoError(t, s.SelectTenant("A"))
	s.text[PromptTokens], s.text[Secret] = "1", "x"
	for len(s.ops) <= MaxLinkOps {
		require.NoError(t, s.Send())
	}
	assert.False(t, s.Linkable(), "%d requests", len(s.ops))
	_, err = DecodeLink(s.Query(View{}))
	assert.Error(t, err, "the link it would write does not open")
}

// Links made before version 2 keep opening, with the allocator they were
// made with; as every link made with one pool, decode gets the pool
// DecodePoolForSinglePool says and the notice says what changed.
func TestVersion1LinksOpenWithTheirAllocator(t *testing.T) {
	old := "v=1&preset=demo&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=both&scrub=0&op=s,A,8,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,12,-,summarise+my+notes"
	st, err := DecodeLink(old)
	require.NoError(t, err)
	assert.Equal(t, engine.LIFO, st.Config.Allocator)
	assert.Equal(t, 16, st.Config.DecodePoolTokens, "the 16-token context, backed")
	assert.Equal(t, engine.DecodePoolForSinglePool(16, 8, 1), st.Config.DecodePoolTokens)
	assert.Empty(t, st.Preset, "the demo is another run now")
	s := NewSession()
	require.NoError(t, s.ApplyLink(st))
	assert.Equal(t, engine.LIFO, s.Config().Allocator)
	_, changed := engine.MigrateV3(st.Config, st.Ops)
	assert.Equal(t, "This link (version 1) was made when the playground had one KV pool. Its pages-per-slot setting is gone: decode now reserves the pages of the prompt as its own intake sees it, as SGLang's DecodePreallocQueue does. Its pool is now the prefill server's; decode's pool, which it did not set, is 16 tokens — enough to back the advertised context, so every prompt the API passes reaches decode's door as before. It keeps the lifo allocator it was made with. "+changed+" Outcomes may differ from when it was made.",
		s.Notice())
	assert.Contains(t, changed, "this run reserves 0 tokens, as it reserved none, and decode's pool stays 16 tokens")
	assert.Equal(t, "v=4&ctx=16&pool=8&dpool=16&page=1&reserve=0&mode=vulnerable&alloc=lifo&cancel=both&scrub=0&op=s,A,8,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,12,-,summarise+my+notes",
		s.AddressQuery(), "the address bar moves to version 4, with decode's pool, its reserve and the allocator spelt out")
	again, err := DecodeLink(s.AddressQuery())
	require.NoError(t, err)
	assert.Equal(t, s.Config(), again.Config, "the new link opens the same run")
	assert.Empty(t, again.Migrated)

	short, err := DecodeLink("v=1&preset=glm-launch")
	require.NoError(t, err)
	assert.Empty(t, short.Migrated, "a preset by name is today's preset")
	assert.Equal(t, engine.Sorted, short.Config.Allocator)
}

// A version 2 link, made with one pool and pages per slot, opens: slot is
// dropped, decode gets a pool that backs the context, and the notice names
// both. The session's own link is then version 3.
func TestVersion2LinksOpenWithANotice(t *testing.T) {
	// The demo as version 2 wrote it, B's 200 tokens in an 8-page slot.
	old := "v=2&preset=demo&ctx=256&pool=128&page=16&slot=8&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&op=s,A,120,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,200,-,summarise+my+notes&step=5"
	st, err := DecodeLink(old)
	require.NoError(t, err)
	want := engine.DemoConfig()
	want.DecodePoolTokens = 256 // the 256-token context in whole pages: A and B are decoded
	want.ReservedDecodeTokens = 0
	assert.Equal(t, want, st.Config)
	assert.Equal(t, engine.DecodePoolForSinglePool(256, 128, 16), st.Config.DecodePoolTokens)
	assert.Equal(t, 5, st.Step)
	assert.Empty(t, st.Preset, "today's demo is another run: the link is not it")

	s := NewSession()
	require.NoError(t, s.ApplyLink(st))
	notice := s.Notice()
	assert.True(t, strings.HasPrefix(notice, "This link (version 2) was made when the playground had one KV pool."), notice)
	assert.Contains(t, notice, "Its pages-per-slot setting is gone: decode now reserves the pages of the prompt as its own intake sees it")
	assert.Contains(t, notice, "Its pool is now the prefill server's; decode's pool, which it did not set, is 256 tokens")
	assert.Contains(t, notice, "Outcomes may differ from when it was made.")
	assert.NotContains(t, notice, "lifo", "version 2 links named their allocator")
	assert.Equal(t, "custom", s.Presets().Selected)

	// Decode admits B's 200 tokens (below its 250) and reserves 13 pages
	// for them, prefill (122) sends its placeholder: A's pages still leak.
	require.NoError(t, s.SelectStep(0))
	r, ok := s.LastResponse()
	require.True(t, ok)
	assert.Equal(t, 200, r.Tokens)
	assert.Equal(t, 13, r.Allocated)
	assert.True(t, r.PrefillRejected)
	assert.False(t, r.DecodeRejected)
	assert.Equal(t, 7, r.LeakedPages.Len())

	assert.True(t, strings.HasPrefix(s.AddressQuery(), "v=4&ctx=256&pool=128&dpool=256&page=16&reserve=0&mode=vulnerable&"), s.AddressQuery())
	assert.NotContains(t, s.AddressQuery(), "slot=")

	// The notice stays until the run changes.
	require.NoError(t, s.SelectStep(3))
	assert.Equal(t, notice, s.Notice())
	require.NoError(t, s.SetNumber(DecodePool, "144"))
	assert.Empty(t, s.Notice(), "the reader's own settings: nothing migrated")
}

// An older link of a run that is still a preset's keeps its name: the
// abort presets keep no reserve, and their pools decode every request.
func TestMigratedLinkKeepsAPresetItStillMatches(t *testing.T) {
	p, _ := engine.PresetBySlug("abort-one-half")
	require.Zero(t, p.Config.ReservedDecodeTokens)
	v4 := EncodeLink(LinkState{Preset: p.Slug, Config: p.Config, Ops: p.Ops})
	v3 := strings.Replace(strings.Replace(v4, "v=4&", "v=3&", 1), "&reserve=0&", "&", 1)
	require.NotEqual(t, v4, v3)
	st, err := DecodeLink(v3)
	require.NoError(t, err)
	assert.Equal(t, p.Slug, st.Preset)
	assert.Equal(t, p.Config, st.Config)
	assert.NotEmpty(t, st.Migrated, "it was still made with an earlier version")

	g, _ := engine.PresetBySlug("glm-launch")
	st, err = DecodeLink(strings.Replace(strings.Replace(EncodeLink(LinkState{Preset: g.Slug, Config: g.Config, Ops: g.Ops}), "v=4&", "v=3&", 1),
		"&reserve="+strconv.Itoa(g.Config.ReservedDecodeTokens)+"&", "&", 1))
	require.NoError(t, err)
	assert.Empty(t, st.Preset, "the launch preset keeps SGLang's reserve now; a v3 link of it ran without")
}

// Linkable adds up the link's length (queryLen) instead of building it:
// the sum is the built query's length, for any view and a run of any size.
func TestQueryLenIsTheQuerysLength(t *testing.T) {
	s := NewSession()
	views := []View{{}, {Compare: true, Embed: true, ReadOnly: true}, {Embed: true, Panel: "pool", Theme: "dark"}, {Tour: 3}}
	require.NoError(t, s.SelectTenant("A"))
	for n := range 5 {
		for _, v := range views {
			assert.Equal(t, len(s.Query(v)), s.queryLen(v), "%d Sends, view %+v", n, v)
		}
		require.NoError(t, s.Send())
	}
}

// A run whose requests touch more pages than a link may ask for is not
// linkable, however few its operations: DecodeLink would refuse its link
// (FuzzSession found one at 8,659,296 pages). It is kept in the tab.
func TestARunTooHeavyForALinkIsNotLinkable(t *testing.T) {
	s := NewSession()
	cfg := engine.DemoConfig()
	// Two pools as large as the bound on both allows; prompts both admit.
	cfg.PoolTokens, cfg.DecodePoolTokens, cfg.PageTokens, cfg.ContextTokens = 2_097_152, 2_097_152, 1, 4_194_304
	require.NoError(t, s.ApplyLink(LinkState{Config: cfg}))
	for s.Linkable() {
		require.NoError(t, s.SetNumber(PromptTokens, "2097000"))
		require.NoError(t, s.Send())
	}
	assert.Greater(t, engine.ReplayWork(s.Config(), s.Ops()), int64(engine.MaxReplayWork))
	assert.LessOrEqual(t, len(s.Ops()), 4, "a few requests")
	_, err := DecodeLink(s.Query(View{}))
	require.Error(t, err, "the link it would have written is refused")
	data, err := s.TabRun()
	require.NoError(t, err)
	require.NoError(t, NewSession().RestoreTabRun(data), "the run kept in the tab reopens")
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

func TestSessionSendsMaxNewTokens(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.SetText(PromptTokens, "125"))
	require.NoError(t, s.SetText(MaxNew, "1,000"))
	require.NoError(t, s.Send())
	last, _ := s.eng.LastResponse()
	assert.Equal(t, 400, last.Status, "125 + 1,000 is over the demo's context")
	assert.Contains(t, last.Reason, "Requested token count exceeds")
	require.NoError(t, s.SetText(MaxNew, "lots"))
	require.Error(t, s.Send())
	assert.Contains(t, s.Err(MaxNew), "max_new_tokens")
}
