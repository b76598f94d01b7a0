package challenge

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// play is a run against a challenge: the start's settings changed by cfg
// (nil: kept), the start's operations followed by ops, and an answer.
type play struct {
	name   string
	cfg    func(c *engine.Config)
	ops    func(t *testing.T, c engine.Config, start []engine.Op) []engine.Op
	answer Answer
}

func send(tenant string, n int) engine.Op {
	return engine.SendOp(engine.Request{Tenant: tenant, PromptTokens: n, Content: "probe"})
}

// first is the window's first length, which must be in it.
func first(t *testing.T, c engine.Config) int {
	w := c.Window()
	require.True(t, w.Open(), "the window is closed at %+v", c)
	return w.First
}

// prefillLimit is prefill's max_req_input_len, the shortest prompt it rejects.
func prefillLimit(c engine.Config) int { return c.LimitsOf(engine.ServerPrefill).MaxReqInputLen() }

// sendAt is a play that sends tenant a prompt of n(c) tokens after the start.
func sendAt(tenant string, n func(t *testing.T, c engine.Config) int) func(*testing.T, engine.Config, []engine.Op) []engine.Op {
	return func(t *testing.T, c engine.Config, _ []engine.Op) []engine.Op {
		return []engine.Op{send(tenant, n(t, c))}
	}
}

func firstPlus(d int) func(*testing.T, engine.Config) int {
	return func(t *testing.T, c engine.Config) int { return first(t, c) + d }
}

// writerCheckRun is challenge 8's known solution's settings: a page as
// large as prefill's pool, decode's pool two such pages.
func writerCheckRun(c *engine.Config) {
	c.PageTokens, c.DecodePoolTokens = c.PoolTokens, 4*c.PoolTokens
}

// plays are, for each challenge, a known solution first, then near misses.
var plays = map[int][]play{
	1: {
		{name: "B at the window's first length", ops: sendAt("B", firstPlus(0))},
		{name: "B one token short of the window", ops: sendAt("B", firstPlus(-1))},
		{name: "C reads the flag, not B", ops: sendAt("C", firstPlus(0))},
		{name: "the allocator changed", cfg: func(c *engine.Config) { c.Allocator = engine.FIFO }, ops: sendAt("B", firstPlus(0))},
	},
	2: {
		{name: "B at the window's first length", ops: sendAt("B", firstPlus(0))},
		{name: "one token longer leaks too", ops: sendAt("B", firstPlus(1))},
		{name: "one token shorter fits prefill", ops: sendAt("B", firstPlus(-1))},
	},
	3: {
		{name: "B writes the pages, then C reads them", ops: func(t *testing.T, c engine.Config, _ []engine.Op) []engine.Op {
			return []engine.Op{send("B", first(t, c)-1), send("C", first(t, c))}
		}},
		{name: "C reads A's pages", ops: sendAt("C", firstPlus(0))},
	},
	4: {
		{name: "B in the window", ops: sendAt("B", firstPlus(0))},
		{name: "B fits prefill", ops: sendAt("B", firstPlus(-1))},
	},
	5: {
		{name: "B's transfer fails", ops: func(t *testing.T, c engine.Config, start []engine.Op) []engine.Op {
			r := engine.Request{Tenant: "B", PromptTokens: start[0].Send.PromptTokens, FailTransfer: true}
			return []engine.Op{engine.SendOp(r)}
		}},
		{name: "the same request, transferred", ops: func(t *testing.T, c engine.Config, start []engine.Op) []engine.Op {
			return []engine.Op{send("B", start[0].Send.PromptTokens)}
		}},
		{name: "B in the window, retired by the door", ops: sendAt("B", firstPlus(0))},
	},
	6: {
		{name: "the shortest prompt prefill rejects, then it cannot", ops: probe(0), answer: Cannot},
		{name: "the right probe, the wrong answer", ops: probe(0), answer: Can},
		{name: "the right probe, no answer", ops: probe(0)},
		{name: "a longer probe proves nothing", ops: probe(1), answer: Cannot},
		{name: "no probe", answer: Cannot},
		{name: "decode's pool changed", cfg: func(c *engine.Config) { c.DecodePoolTokens += c.PageTokens }, ops: probe(0), answer: Cannot},
	},
	7: {
		{name: "B in the window", ops: sendAt("B", firstPlus(0))},
		{name: "B over the context: the API's 400", ops: sendAt("B", func(_ *testing.T, c engine.Config) int { return c.ContextTokens })},
		{name: "B fits", ops: sendAt("B", firstPlus(-1))},
		{name: "the length check alone: 400 after allocation", cfg: func(c *engine.Config) { c.Mode = engine.LengthCheckOnly }, ops: sendAt("B", firstPlus(0))},
	},
	8: {
		{name: "a two-page read stopped, a one-page read through", cfg: writerCheckRun, ops: func(t *testing.T, c engine.Config, _ []engine.Op) []engine.Op {
			one, two := first(t, c), c.PageTokens+1
			require.Equal(t, 1, c.ReservedPages(one))
			require.True(t, c.Window().Contains(two))
			require.Equal(t, 2, c.ReservedPages(two))
			return []engine.Op{send("C", two), send("B", one)}
		}},
		{name: "stopped only, on the start's settings", ops: sendAt("B", firstPlus(0))},
		{name: "through only", cfg: writerCheckRun, ops: sendAt("B", firstPlus(0))},
		{name: "the writer check turned off", cfg: func(c *engine.Config) { writerCheckRun(c); c.CheckWriter = false }, ops: func(t *testing.T, c engine.Config, _ []engine.Op) []engine.Op {
			return []engine.Op{send("C", c.PageTokens+1), send("B", first(t, c))}
		}},
	},
}

// probe sends the shortest prompt prefill rejects, plus d tokens.
func probe(d int) func(*testing.T, engine.Config, []engine.Op) []engine.Op {
	return sendAt("B", func(_ *testing.T, c engine.Config) int { return prefillLimit(c) + d })
}

func (p play) run(t *testing.T, c Challenge) Verdict {
	cfg, ops, err := c.Start()
	require.NoError(t, err)
	if p.cfg != nil {
		p.cfg(&cfg)
	}
	if p.ops != nil {
		ops = append(ops[:len(ops):len(ops)], p.ops(t, cfg, ops)...)
	}
	e, err := engine.Replay(cfg, ops)
	require.NoError(t, err)
	return c.Check(e, p.answer)
}

func TestEachChallengeHasASolutionAndNearMisses(t *testing.T) {
	require.Len(t, plays, len(Ladder()))
	require.GreaterOrEqual(t, len(Ladder()), 8)
	for n, c := range Ladder() {
		ps := plays[n+1]
		require.GreaterOrEqual(t, len(ps), 2, "challenge %d", n+1)
		for i, p := range ps {
			t.Run(fmt.Sprintf("%d %s", n+1, p.name), func(t *testing.T) {
				v := p.run(t, c)
				if i == 0 {
					assert.True(t, v.Solved, "the solution: %+v", v)
					assert.NotZero(t, v.Request)
					return
				}
				assert.False(t, v.Solved, "a near miss solved it: %+v", v)
				assert.NotEmpty(t, v.Says)
			})
		}
	}
}

func TestNoStartSolvesItsChallenge(t *testing.T) {
	for n, c := range Ladder() {
		for _, a := range []Answer{NoAnswer, Can, Cannot} {
			v := play{answer: a}.run(t, c)
			assert.False(t, v.Met, "challenge %d's start with answer %q", n+1, a)
			assert.Empty(t, v.Broken)
			assert.Empty(t, v.Fair())
		}
	}
}

func TestFairPlay(t *testing.T) {
	one, _ := Get(1)
	v := plays[1][3].run(t, one) // the allocator changed
	assert.True(t, v.Met)
	assert.False(t, v.Solved)
	assert.Equal(t, []string{"the allocator"}, v.Broken)
	assert.Contains(t, v.Fair(), "does not count")

	eight, _ := Get(8)
	v = plays[8][0].run(t, eight)
	assert.True(t, v.Solved)
	assert.Equal(t, []string{"decode's pool", "the page size"}, v.Changed)
	assert.Contains(t, v.Fair(), "still counts")
}

func TestTheSymmetricPoolsWindowIsClosed(t *testing.T) {
	six, _ := Get(6)
	require.NotEmpty(t, six.Question)
	cfg, _, err := six.Start()
	require.NoError(t, err)
	assert.False(t, cfg.Window().Open())
	v := plays[6][1].run(t, six) // the wrong answer
	assert.Contains(t, v.Says, "Not so")
}

func TestGetAndParseAnswer(t *testing.T) {
	_, err := Get(0)
	assert.ErrorContains(t, err, "challenges 1 to")
	_, err = Get(len(Ladder()) + 1)
	assert.Error(t, err)
	for _, s := range []string{"", "can", "cannot"} {
		a, err := ParseAnswer(s)
		assert.NoError(t, err)
		assert.Equal(t, Answer(s), a)
	}
	_, err = ParseAnswer("maybe")
	assert.ErrorContains(t, err, `"cannot"`)
	assert.Len(t, changed(engine.DemoConfig(), engine.DemoConfig()), len(settings), "a comparison per setting")
}

// Every challenge's text is there, and its free settings are settings.
func TestLadderIsComplete(t *testing.T) {
	for n, c := range Ladder() {
		assert.NotEmpty(t, c.Title, n+1)
		assert.NotEmpty(t, c.Goal, n+1)
		assert.NotEmpty(t, c.Lesson, n+1)
		assert.GreaterOrEqual(t, len(c.Hints), 2, n+1)
		assert.Equal(t, len(c.Free) > 0, c.Rules != "", "challenge %d says which settings it frees", n+1)
		for _, f := range c.Free {
			assert.Contains(t, settingKeys(), f, "challenge %d frees %q", n+1, f)
		}
	}
}

func settingKeys() []string {
	var keys []string
	for _, s := range settings {
		keys = append(keys, s.key)
	}
	return keys
}
