package model

import (
	"fmt"

	"kvleak/engine"
	"kvleak/permalink"
)

// LaunchView is the launch tests panel: the three tests, graded by the
// engine on the run's newest suite.
type LaunchView struct {
	Tests []LaunchTestView
	// Summary is one line for the status region.
	Summary string
}

// LaunchTestView is one test as the panel shows it.
type LaunchTestView struct {
	ID, Name, What string
	Result         string // "pass", "fail" or "not run"
	Detail         string
	// Requests are the test's requests with the log step of each one's
	// response, to show it in the run.
	Requests []LaunchRequest
}

// LaunchRequest is a request of a test and where its response is in the log.
type LaunchRequest struct {
	ID, Step int
}

// Launch is the launch tests panel's view of the run.
func (s *Session) Launch() LaunchView {
	var v LaunchView
	passed, ran := 0, 0
	for _, r := range s.eng.LaunchResults() {
		t := LaunchTestView{ID: string(r.ID), Name: r.Name, What: r.What, Result: "not run", Detail: "Not run on this run yet."}
		if r.Ran {
			ran++
			t.Result, t.Detail = "fail", r.Detail
			if r.Pass {
				t.Result = "pass"
				passed++
			}
		}
		for _, id := range r.Requests {
			resp, _ := s.eng.Response(id)
			t.Requests = append(t.Requests, LaunchRequest{id, resp.Step})
		}
		v.Tests = append(v.Tests, t)
	}
	v.Summary = "The launch tests have not run on this run."
	if ran > 0 {
		v.Summary = fmt.Sprintf("Launch tests: %d of %d passed.", passed, ran)
	}
	return v
}

// RunLaunchTests sends the launch suite's requests against the configured
// engine and adds them to the run, like any other requests. On error
// nothing changes.
func (s *Session) RunLaunchTests() error {
	ops := append(append([]engine.Op(nil), s.ops...), engine.LaunchSuite(s.cfg)...)
	e, err := engine.Replay(s.cfg, ops)
	if err == nil && len(ops) > permalink.MaxLinkOps {
		err = fmt.Errorf("the run would have %d operations", len(ops))
	}
	if err == nil && engine.ReplayWork(s.cfg, ops) > engine.MaxReplayWork {
		err = fmt.Errorf("the run's requests would touch more than %s pages", engine.Thousands(engine.MaxReplayWork))
	}
	if err != nil {
		s.notice = "The launch tests cannot run on this run: " + err.Error() + ". Press Reset and run them again."
		return err
	}
	s.setRun(s.cfg, e, ops)
	s.preset = ""
	s.addTenantsOf(ops)
	return nil
}
