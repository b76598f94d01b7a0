package model

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/permalink"
)

// The demo's link as version 3 wrote it (decode's pool 144 tokens, no
// budget, no clamp) opens, replays the run it was made with — B still
// reads A's seven stale pages — and says what changed (permalink's
// TestVersion3DemoLinkMigrates).
func TestVersion3DemoLinkStillLeaks(t *testing.T) {
	const old = "v=3&preset=demo&ctx=256&pool=128&dpool=144&page=16&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&op=s,A,120,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,125,-,summarise+my+notes"
	st, err := DecodeLink(old)
	require.NoError(t, err)
	s := NewSession()
	require.NoError(t, s.ApplyLink(st))
	r, ok := s.LastResponse()
	require.True(t, ok)
	assert.Equal(t, 200, r.Status)
	assert.Equal(t, 7, r.LeakedPages.Len(), "B reads A's seven stale pages")
	require.NotEmpty(t, st.Migrated)
	assert.Equal(t, st.Migrated, s.Notice())
	assert.True(t, strings.HasPrefix(s.AddressQuery(), "v=4&"), s.AddressQuery())
	again, err := DecodeLink(s.AddressQuery())
	require.NoError(t, err)
	assert.Equal(t, st.Config, again.Config, "the session's own link opens the same run")
	assert.Empty(t, again.Migrated)
}

func TestPermalinkWithoutState(t *testing.T) {
	for _, raw := range []string{"", "embed=1", "embed=1&ro=1"} {
		st, err := DecodeLink(raw)
		assert.ErrorIs(t, err, permalink.ErrNoState, raw)
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

// FuzzOpenLink opens any link as the page does: its view keys read, its
// run applied (permalink's FuzzDecodeLink fuzzes the codec).
func FuzzOpenLink(f *testing.F) {
	for _, p := range engine.Presets() {
		f.Add(permalink.EncodeLink(permalink.LinkState{Preset: p.Slug, Config: p.Config, Ops: p.Ops}, "tour=2", "challenge=1"))
	}
	f.Add("v=1&op=s,%ZZ,1,-,x&embed=1&view=pool")
	f.Add("v=3&ctx=256&pool=128&dpool=128&page=16&op=s,A,120,-,x&op=s,B,125,-,y&theme=dark") // a v3 run, migrated
	f.Add("v=4&tab=1&compare=1")
	f.Fuzz(func(t *testing.T, raw string) {
		st, err := DecodeLink(raw)
		if err != nil {
			return
		}
		s := NewSession()
		_ = s.ApplyLink(st) // must not panic or hang
	})
}

func TestLinkableBoundsFollowDecodeLink(t *testing.T) {
	s := NewSession()
	assert.True(t, s.Linkable())
	_, err := DecodeLink(s.Query(View{}))
	require.NoError(t, err)

	require.NoError(t, s.SelectTenant("A"))
	s.text[PromptTokens], s.text[Secret] = "1", "x"
	for len(s.ops) <= permalink.MaxLinkOps {
		require.NoError(t, s.Send())
	}
	assert.False(t, s.Linkable(), "%d requests", len(s.ops))
	_, err = DecodeLink(s.Query(View{}))
	assert.Error(t, err, "the link it would write does not open")
}

// Links made before version 2 keep opening, with the allocator they were
// made with, and the notice says what changed; the address bar moves to
// version 4.
func TestVersion1LinksOpenWithTheirAllocator(t *testing.T) {
	old := "v=1&preset=demo&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=both&scrub=0&op=s,A,8,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,12,-,summarise+my+notes"
	st, err := DecodeLink(old)
	require.NoError(t, err)
	s := NewSession()
	require.NoError(t, s.ApplyLink(st))
	assert.Equal(t, engine.LIFO, s.Config().Allocator)
	assert.Equal(t, st.Migrated, s.Notice(), "permalink's TestVersion1LinksReadWithTheirAllocator has its words")
	assert.Equal(t, "v=4&ctx=16&pool=8&dpool=16&page=1&reserve=0&mode=vulnerable&alloc=lifo&cancel=both&scrub=0&op=s,A,8,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,12,-,summarise+my+notes",
		s.AddressQuery(), "the address bar moves to version 4, with decode's pool, its reserve and the allocator spelt out")
	again, err := DecodeLink(s.AddressQuery())
	require.NoError(t, err)
	assert.Equal(t, s.Config(), again.Config, "the new link opens the same run")
	assert.Empty(t, again.Migrated)

	// The short form names today's preset: nothing to say.
	short, err := DecodeLink("v=1&preset=demo")
	require.NoError(t, err)
	today := NewSession()
	require.NoError(t, today.ApplyLink(short))
	demo := NewSession()
	require.NoError(t, demo.LoadPreset("demo"))
	assert.Equal(t, demo.Response(), today.Response())
	assert.Equal(t, engine.Sorted, today.Config().Allocator)
	assert.Empty(t, today.Notice())
}

// A version 2 link, made with one pool and pages per slot, opens with a
// notice that stays until the run changes, and still leaks. The session's
// own link is then version 4.
func TestVersion2LinksOpenWithANotice(t *testing.T) {
	// The demo as version 2 wrote it, B's 200 tokens in an 8-page slot.
	old := "v=2&preset=demo&ctx=256&pool=128&page=16&slot=8&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&op=s,A,120,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,200,-,summarise+my+notes&step=5"
	st, err := DecodeLink(old)
	require.NoError(t, err)
	s := NewSession()
	require.NoError(t, s.ApplyLink(st))
	notice := s.Notice()
	assert.Equal(t, st.Migrated, notice, "permalink's TestVersion2LinksReadWithANotice has its words")
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
	require.NoError(t, s.ApplyLink(Link{LinkState: permalink.LinkState{Config: cfg}}))
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

// The form's settings are the link's, in the order a link writes them:
// each a field with a label, and every setting a link carries a field.
func TestFormSettingsAreTheLinks(t *testing.T) {
	require.Len(t, Settings, len(permalink.Settings))
	for i, f := range Settings {
		assert.Equal(t, permalink.Settings[i].Key(), f.Key(), f.ID())
		assert.NotEmpty(t, f.Label(), f.ID())
	}
	for _, f := range []Field{PromptTokens, Secret, Tenant, TenantName, EndEarly, MaxNew} {
		assert.Empty(t, f.Key(), "%s is the request form's, not a setting", f.ID())
	}
}
