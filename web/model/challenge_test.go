package model

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/challenge"
	"kvleak/engine"
)

// sendAs sends a prompt of n tokens as tenant, through the form.
func sendAs(t *testing.T, s *Session, tenant string, n int) {
	t.Helper()
	if tenant != s.Tenant() {
		require.NoError(t, s.SelectTenant(tenant))
	}
	require.NoError(t, s.SetText(PromptTokens, engine.Thousands(int64(n))))
	require.NoError(t, s.Send())
}

func TestChallengeOpensOnItsStart(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.ChallengeTo(1))
	c, _ := challenge.Get(1)
	cfg, ops, err := c.Start()
	require.NoError(t, err)
	assert.Equal(t, cfg, s.Config())
	assert.Equal(t, ops, s.Ops())
	assert.Equal(t, 1, s.View().Challenge)
	assert.False(t, s.ScoreChallenge(), "opening a challenge is not a try")

	v := s.Challenge()
	assert.True(t, v.Open)
	assert.Equal(t, len(challenge.Ladder()), v.Of)
	assert.Equal(t, c.Goal, v.Goal)
	assert.False(t, v.Solved)
	assert.NotEmpty(t, v.Status)
	assert.Empty(t, v.Hints)
	assert.Equal(t, 3, v.HintIn)
	assert.Empty(t, v.Lesson)
	assert.Equal(t, 2, v.Next)

	for _, n := range []int{0, len(challenge.Ladder()) + 1} {
		assert.Error(t, s.ChallengeTo(n))
		assert.Equal(t, 1, s.View().Challenge, "a bad number changes nothing")
	}
	require.NoError(t, s.ChallengeAction(ChallengeClose, ""))
	assert.False(t, s.Challenge().Open)
}

// Challenge 1 through the form: near misses (the flag read, but by C) are
// tries that reveal hints,
// the solution is recorded with its link, and the link solves it again in
// another browser's session.
func TestChallengeSolvedThroughTheForm(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.ChallengeTo(1))
	first := s.Config().Window().First
	for i := range 3 {
		sendAs(t, s, "C", first)
		assert.True(t, s.ScoreChallenge(), "try %d", i+1)
		assert.False(t, s.ScoreChallenge(), "the same run is one try")
	}
	v := s.Challenge()
	assert.Equal(t, 3, s.Progress().Item(1).Tries)
	c, _ := challenge.Get(1)
	assert.Equal(t, c.Hints[:1], v.Hints)
	assert.Equal(t, 5-3, v.HintIn)

	sendAs(t, s, "B", first)
	assert.True(t, s.ScoreChallenge())
	v = s.Challenge()
	assert.True(t, v.Solved)
	assert.True(t, v.RunSolves)
	assert.Empty(t, v.Hints, "a solved challenge shows its lesson, not its hints")
	assert.Zero(t, v.HintIn)
	assert.Equal(t, c.Lesson, v.Lesson)
	assert.Contains(t, v.Announce, "Challenge 1 solved")
	assert.Contains(t, v.Link, "challenge=1")
	assert.Equal(t, s.Query(View{Challenge: 1}), v.Link)
	assert.Equal(t, 1, s.Challenges().Solved)
	assert.True(t, s.Challenges().Items[0].Solved)

	// The progress survives a reload; the winning link, opened in a fresh
	// session, solves the challenge there too.
	again := NewSession()
	require.NoError(t, again.LoadProgress(s.Progress().Encode()))
	assert.Equal(t, s.Progress(), again.Progress())
	require.NoError(t, again.ChallengeTo(1))
	assert.True(t, again.Challenge().Solved, "solved before")
	assert.False(t, again.Challenge().RunSolves, "the start does not solve it")
	assert.Empty(t, again.Challenge().Link, "the link is this run's, when it solves it")

	fresh := NewSession()
	st, err := DecodeLink(v.Link)
	require.NoError(t, err)
	require.NoError(t, fresh.ApplyLink(st))
	assert.True(t, fresh.ScoreChallenge(), "a pasted link that solves it counts")
	assert.True(t, fresh.Challenge().Solved)
}

// Fair play: a held setting changed is named, and the run does not count.
func TestChallengeSaysWhetherChangedSettingsCount(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.ChallengeTo(1))
	require.NoError(t, s.SetChoice(Allocator, string(engine.FIFO)))
	sendAs(t, s, "B", s.Config().Window().First)
	s.ScoreChallenge()
	v := s.Challenge()
	assert.False(t, v.RunSolves)
	assert.False(t, v.Solved)
	assert.Contains(t, v.Fair, "the allocator")
	assert.Contains(t, v.Fair, "does not count")
}

// The question challenge takes the reader's answer, and forgets it on
// another challenge.
func TestChallengeAnswer(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.ChallengeTo(1))
	assert.Error(t, s.ChallengeAction(ChallengeAnswer, "cannot"), "challenge 1 asks nothing")
	assert.Error(t, s.ChallengeAction(ChallengeAnswer, "maybe"))

	n := questionChallenge(t)
	require.NoError(t, s.ChallengeTo(n))
	assert.NotEmpty(t, s.Challenge().Question)
	sendAs(t, s, "B", s.Config().LimitsOf(engine.ServerPrefill).MaxReqInputLen())
	s.ScoreChallenge()
	assert.False(t, s.Challenge().RunSolves)
	require.NoError(t, s.ChallengeAction(ChallengeAnswer, "can"))
	assert.True(t, s.ScoreChallenge(), "a new answer is a try")
	assert.Contains(t, s.Challenge().Status, "Not so")
	require.NoError(t, s.ChallengeAction(ChallengeAnswer, "cannot"))
	assert.True(t, s.ScoreChallenge())
	assert.True(t, s.Challenge().RunSolves)
	assert.Equal(t, "cannot", s.Challenge().Answer)

	require.NoError(t, s.ChallengeTo(1))
	assert.Empty(t, s.Challenge().Answer)
}

// The panels' actions, and what they refuse.
func TestChallengeActions(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.ChallengeAction(ChallengeOpen, "3"))
	assert.Equal(t, 3, s.View().Challenge)
	sendAs(t, s, "B", 8)
	require.NoError(t, s.ChallengeAction(ChallengeRestart, ""))
	c, _ := challenge.Get(3)
	_, ops, _ := c.Start()
	assert.Equal(t, ops, s.Ops(), "start over: the start's run again")
	for _, bad := range [][2]string{{ChallengeOpen, "x"}, {ChallengeOpen, "0"}, {ChallengeAnswer, "cannot"}, {"fly", ""}} {
		assert.Error(t, s.ChallengeAction(bad[0], bad[1]), "%q", bad)
		assert.Equal(t, 3, s.View().Challenge, "%q changes nothing", bad)
	}
	require.NoError(t, s.ChallengeAction(ChallengeClose, ""))
	assert.Zero(t, s.View().Challenge)
	assert.Error(t, s.ChallengeAction(ChallengeAnswer, "can"), "no challenge open")
}

func questionChallenge(t *testing.T) int {
	for i, c := range challenge.Ladder() {
		if c.Question != "" {
			return i + 1
		}
	}
	t.Fatal("no challenge asks a question")
	return 0
}

func TestProgressReadsBackAndRefusesWhatItCannotRead(t *testing.T) {
	var p Progress
	p.set(2, ProgressItem{Solved: true, Tries: 4})
	p.set(5, ProgressItem{Tries: 1})
	got, err := ParseProgress(p.Encode())
	require.NoError(t, err)
	assert.Equal(t, p, got)
	assert.Equal(t, 1, got.SolvedCount())
	assert.Equal(t, ProgressItem{}, got.Item(0))
	assert.Equal(t, ProgressItem{}, got.Item(99))

	empty, err := ParseProgress(nil)
	assert.NoError(t, err)
	assert.Zero(t, empty.SolvedCount())

	for _, bad := range []string{"garbage", `{"items":[{"tries":"x"}]}`, `{"items":[]}x`, `{"items":[` + strings.Repeat(`{},`, maxProgressBytes) + `{}]}`} {
		_, err := ParseProgress([]byte(bad))
		assert.Error(t, err, bad[:min(len(bad), 20)])
	}
	// A count out of range, or a challenge past the ladder, is dropped.
	got, err = ParseProgress([]byte(`{"items":[{"solved":true},{"tries":-1},{"tries":9999999},{"tries":2}` + strings.Repeat(`,{"solved":true}`, 20) + `]}`))
	require.NoError(t, err)
	assert.Equal(t, ProgressItem{Solved: true}, got.Item(1))
	assert.Equal(t, ProgressItem{}, got.Item(2))
	assert.Equal(t, ProgressItem{}, got.Item(3))
	assert.Equal(t, ProgressItem{Tries: 2}, got.Item(4))
	assert.Len(t, got.Items, len(challenge.Ladder()))

	s := NewSession()
	assert.Error(t, s.LoadProgress([]byte("garbage")))
	assert.Zero(t, s.Progress().SolvedCount(), "unreadable progress starts afresh")
}

func FuzzParseProgress(f *testing.F) {
	var p Progress
	p.set(1, ProgressItem{Solved: true, Tries: 2})
	f.Add(p.Encode())
	f.Add([]byte(`{"items":[{"solved":true,"tries":1000000}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProgress(data)
		if err != nil {
			return
		}
		again, err := ParseProgress(p.Encode())
		require.NoError(t, err)
		require.Equal(t, p.Encode(), again.Encode(), "what it reads, it writes back the same")
	})
}
