package model

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"

	"kvleak/challenge"
	"kvleak/engine"
	"kvleak/permalink"
)

// The capture-the-flag ladder on the page: the open challenge (View's
// Challenge), the reader's answer to its question, and the progress kept
// in the browser. The check is the challenge package's, on the session's
// engine: the run is judged by what it did, however the reader got there.

// challengeState is the session's part of the ladder.
type challengeState struct {
	progress Progress
	n        int              // the challenge the answer and the tries belong to
	answer   challenge.Answer // the reader's answer to its question
	scored   scoreKey         // the run last counted as a try
	key      scoreKey         // the run verdict was found for
	verdict  challenge.Verdict
}

// scoreKey names a run and an answer: a new engine for new settings, its
// events for a request sent on it.
type scoreKey struct {
	eng    *engine.Engine
	events int
	n      int
	answer challenge.Answer
}

// ChallengeView is the open challenge's panel.
type ChallengeView struct {
	Open        bool
	N, Of       int
	Title, Goal string
	Rules       string
	Question    string // asked of a "prove it cannot be done" challenge
	Answer      string // the reader's answer so far
	Solved      bool   // solved in this browser, by this run or an earlier one
	RunSolves   bool   // this run solves it
	Status      string // what the check says of this run
	Fair        string // whether a run with changed settings counts
	Lesson      string // once solved
	Link        string // this winning run's query ("" when it does not solve it, or is too long for a link)
	Hints       []string
	HintIn      int    // tries until the next hint, 0 when all are out
	Next        int    // the next challenge, 0 after the last
	Announce    string // for the page's status region while this run solves it
}

// ChallengeItem is one challenge in the ladder's list.
type ChallengeItem struct {
	N      int
	Title  string
	Solved bool
}

// ChallengeList is the ladder, with how many the reader solved.
type ChallengeList struct {
	Items  []ChallengeItem
	Solved int
	Open   int // the open challenge, 0 for none
}

// ChallengeTo opens challenge n on its starting run. On error nothing
// changes.
func (s *Session) ChallengeTo(n int) error {
	c, err := challenge.Get(n)
	if err != nil {
		return err
	}
	cfg, ops, err := c.Start()
	if err != nil {
		return err
	}
	view := s.view
	view.Challenge, view.Tour = n, 0
	if err := s.ApplyLink(Link{permalink.LinkState{Config: cfg, Ops: ops}, view}); err != nil {
		return err
	}
	s.chal.n, s.chal.answer = n, challenge.NoAnswer
	s.chal.scored = s.scoreKey() // its start is no try, and solves nothing
	return nil
}

// What the reader can do on the ladder (ChallengeAction).
const (
	ChallengeOpen    = "open"    // the challenge numbered by the value, on its start
	ChallengeRestart = "restart" // the open challenge again, on its start
	ChallengeAnswer  = "answer"  // answer its question with the value (an Answers value)
	ChallengeClose   = "close"   // close its panel; the run stays
)

// Answers are the answers a challenge's question takes, as its panel
// offers them.
var Answers = []Option{{string(challenge.Can), "It can leak"}, {string(challenge.Cannot), "It cannot leak"}}

// ChallengeAction does what the ladder's panels ask: act, one of the
// Challenge… actions, with its value. On error nothing changes.
func (s *Session) ChallengeAction(act, val string) error {
	n, err := s.view.Challenge, error(nil)
	switch act {
	case ChallengeOpen:
		if n, err = strconv.Atoi(val); err != nil {
			return errors.New("a challenge is opened by its number")
		}
		fallthrough
	case ChallengeRestart:
		return s.ChallengeTo(n)
	case ChallengeAnswer:
		a, err := challenge.ParseAnswer(val)
		if c, _ := challenge.Get(n); err == nil && c.Question == "" {
			err = errors.New("this challenge asks no question")
		}
		if err == nil {
			s.syncChallenge()
			s.chal.answer = a
		}
		return err
	case ChallengeClose:
		s.view.Challenge = 0
		return nil
	}
	return errors.New("no such challenge action")
}

// LoadProgress reads the progress kept in the browser. On error the
// progress starts afresh.
func (s *Session) LoadProgress(data []byte) error {
	p, err := ParseProgress(data)
	s.chal.progress = p
	return err
}

// Progress is the ladder's progress, to keep in the browser.
func (s *Session) Progress() Progress { return s.chal.progress }

// syncChallenge forgets the answer and the scored run of a challenge no
// longer open.
func (s *Session) syncChallenge() {
	if s.chal.n != s.view.Challenge {
		s.chal.n, s.chal.answer, s.chal.scored = s.view.Challenge, challenge.NoAnswer, scoreKey{}
	}
}

func (s *Session) scoreKey() scoreKey {
	return scoreKey{s.eng, s.eng.Log().Len(), s.view.Challenge, s.chal.answer}
}

// challengeVerdict is the open challenge's verdict on the run, found once
// per run and answer.
func (s *Session) challengeVerdict(c challenge.Challenge) challenge.Verdict {
	if k := s.scoreKey(); k != s.chal.key {
		s.chal.key, s.chal.verdict = k, c.Check(s.eng, s.chal.answer)
	}
	return s.chal.verdict
}

// ScoreChallenge counts the run as a try at the open challenge, or
// records that it solved it, once per run and answer. It reports whether
// the progress changed (for the page to keep it).
func (s *Session) ScoreChallenge() bool {
	s.syncChallenge()
	c, err := challenge.Get(s.view.Challenge)
	k := s.scoreKey()
	if err != nil || k == s.chal.scored {
		return false
	}
	opened := s.chal.scored == scoreKey{} // the run a link opened the challenge on
	s.chal.scored = k
	n, it := s.view.Challenge, s.chal.progress.Item(s.view.Challenge)
	switch v := s.challengeVerdict(c); {
	case v.Solved && it.Solved, !v.Solved && opened:
		return false
	case v.Solved:
		it.Solved = true
	case it.Tries < maxTries:
		it.Tries++
	default:
		return false
	}
	s.chal.progress.set(n, it)
	return true
}

// Challenge is the open challenge's panel view.
func (s *Session) Challenge() ChallengeView {
	n := s.view.Challenge
	c, err := challenge.Get(n)
	if err != nil {
		return ChallengeView{}
	}
	s.syncChallenge()
	v, it := s.challengeVerdict(c), s.chal.progress.Item(n)
	cv := ChallengeView{Open: true, N: n, Of: len(challenge.Ladder()), Title: c.Title, Goal: c.Goal, Rules: cmp.Or(c.Rules, challenge.HeldRules),
		Question: c.Question, Answer: string(s.chal.answer), Solved: it.Solved || v.Solved, RunSolves: v.Solved,
		Status: v.Says, Fair: v.Fair()}
	if v.Solved && s.Linkable() {
		cv.Link = s.Query(View{Challenge: n})
	}
	if cv.Solved {
		cv.Lesson = c.Lesson
	}
	if n < cv.Of {
		cv.Next = n + 1
	}
	if v.Solved {
		cv.Announce = fmt.Sprintf("Challenge %d solved: %s.", n, c.Title)
	}
	// Hint i shows after 3 + 2i tries; a solved challenge shows its lesson.
	for i := 0; i < len(c.Hints) && !cv.Solved; i++ {
		if after := 3 + 2*i; it.Tries < after {
			cv.HintIn = after - it.Tries
			break
		}
		cv.Hints = c.Hints[:i+1]
	}
	return cv
}

// Challenges is the ladder's list.
func (s *Session) Challenges() ChallengeList {
	l := ChallengeList{Solved: s.chal.progress.SolvedCount(), Open: s.view.Challenge}
	for i, c := range challenge.Ladder() {
		l.Items = append(l.Items, ChallengeItem{N: i + 1, Title: c.Title, Solved: s.chal.progress.Item(i + 1).Solved})
	}
	return l
}
