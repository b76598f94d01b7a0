package model

import (
	"fmt"

	"kvleak/engine"
)

// Lanes of the pipeline diagram: the client, the router, the two servers
// of a prefill/decode pair and the RDMA link between them.
const (
	LaneClient  = "client"
	LaneRouter  = "router"
	LanePrefill = "prefill"
	LaneBoth    = "both" // a stage both servers run (intake, the door)
	LaneDecode  = "decode"
)

// pipelineStages are the diagram's stages in pipeline order, one per stage
// of the log, with the lane each runs in and its role in SGLang's words.
var pipelineStages = []struct {
	stage      engine.Stage
	lane, role string
}{
	{engine.StageRouter, LaneRouter, "sends both halves; on a client abort, cancels one or both"},
	{engine.StageIntake, LaneBoth, "validate_input_length, each server against its own pool"},
	{engine.StageAdmission, LaneBoth, "the door: PrefillBootstrapQueue / DecodePreallocQueue"},
	{engine.StagePrefillBootstrap, LanePrefill, "KV sender for the bootstrap_room"},
	{engine.StageDecodePrealloc, LaneDecode, "pop_preallocated: the budget, then pages for fill_len; send_metadata"},
	{engine.StagePrefillForward, LanePrefill, "forward pass builds the KV in prefill's pool"},
	{engine.StagePrefillTransfer, LanePrefill, "send_kv_chunk over RDMA"},
	{engine.StageDecodeTransfer, LaneDecode, "DecodeTransferQueue polls KVPoll"},
	{engine.StageDecodeRunning, LaneDecode, "attends over kv_committed_len"},
	{engine.StageResponse, LaneClient, "the HTTP response"},
	{engine.StageRelease, LaneBoth, "free() on each pool: ids back, KV kept"},
}

// Where a stage stands for the selected request at the selected step.
const (
	StageDone    = "done"    // it ran, before this step
	StageCurrent = "current" // the selected event
	StageLater   = "later"   // it runs after this step
	StageNever   = "never"   // the request does not pass it
)

// PipelineView is the diagram at the selected step: where the selected
// request is, what the door saw, what crossed the RDMA link.
type PipelineView struct {
	Request int // 0: no request yet
	Tenant  string
	Stage   engine.Stage // the selected event's stage
	Stages  []PipelineStage
	// Prefill and Decode say where each half of the request is, its stage
	// and what the stage does: both are shown at once, so a half still
	// running after the other was cancelled is visible.
	Prefill, Decode string
	Door            string // what the door checked and ignored
	// PrefillIntake and DecodeIntake are each server's own verdict on the
	// prompt, once intake has run: "prefill: 125 ≥ 122 → …".
	PrefillIntake, DecodeIntake string
	Transfer                    string // tokens written vs positions reserved, once a transfer ran
	Poll                        engine.KVPoll
	Late                        bool // the selected event is a late write into reused pages
}

// PipelineStage is one element of the diagram.
type PipelineStage struct {
	Stage engine.Stage
	Lane  string
	Role  string
	State string // StageDone, StageCurrent, StageLater or StageNever
	// Why says in words why a struck-through stage is not on the
	// request's way ("" where the legend's words suffice).
	Why string
	// Budget is, on decode.prealloc, pop_preallocated's check of the
	// request as the engine made it ("125 + 32 reserved ≤ 160 free"), or
	// the request it waits behind ("behind r1"); "" before it ran.
	Budget string
}

// Pipeline is the diagram's view at the selected step.
func (s *Session) Pipeline() PipelineView {
	m := &s.memo
	if k := s.snapKey(); k != m.pipeKey || m.pipe.Stages == nil {
		m.pipe, m.pipeKey = buildPipeline(s.eng, s.Current()), k
	}
	return m.pipe
}

func buildPipeline(e *engine.Engine, step int) PipelineView {
	v := PipelineView{Stages: make([]PipelineStage, len(pipelineStages))}
	for i, st := range pipelineStages {
		v.Stages[i] = PipelineStage{Stage: st.stage, Lane: st.lane, Role: st.role, State: StageNever}
	}
	evs := e.Log()
	if step < 1 || step > evs.Len() {
		v.Prefill, v.Decode, v.Door = "idle", "idle", "No request has reached the door yet."
		return v
	}
	sel := evs.At(step - 1)
	v.Request, v.Tenant, v.Stage, v.Poll, v.Late = sel.Request, sel.Tenant, sel.Stage, sel.Poll, sel.Victim != 0
	if sel.Request == 0 {
		return v
	}
	index := map[engine.Stage]int{}
	for i, st := range pipelineStages {
		index[st.stage] = i
	}
	var reserved, written engine.Pages
	intake := map[engine.Half]bool{} // the servers whose validate_input_length has run
	v.Prefill, v.Decode = "not started", "not started"
	for i := range evs.Len() {
		ev := evs.At(i)
		if ev.Request != sel.Request || ev.Victim != 0 {
			continue
		}
		i, ok := index[ev.Stage]
		if !ok {
			continue
		}
		switch {
		case ev.Step == step:
			v.Stages[i].State = StageCurrent
		case ev.Step < step && v.Stages[i].State != StageCurrent:
			v.Stages[i].State = StageDone
		case ev.Step > step && v.Stages[i].State == StageNever:
			v.Stages[i].State = StageLater
		}
		if ev.Step > step {
			continue
		}
		at := string(ev.Stage) + " — " + pipelineStages[i].role
		switch ev.Half {
		case engine.HalfPrefill:
			v.Prefill = at
		case engine.HalfDecode:
			v.Decode = at
		case engine.HalfBoth:
			v.Prefill, v.Decode = at, at
		}
		switch ev.Stage {
		case engine.StageIntake:
			intake[ev.Half] = true
		case engine.StageDecodePrealloc:
			reserved = ev.Pages
			v.Stages[i].Budget = e.BudgetAt(ev.Step)
		case engine.StagePrefillTransfer:
			written = ev.Pages
		}
	}
	if r := &v.Stages[index[engine.StageRouter]]; r.State == StageNever {
		r.Why = routerWhy
	}
	resp, _ := e.Response(sel.Request)
	v.Door = doorSaw(resp, v.Stages[index[engine.StageAdmission]].State)
	if intake[engine.HalfPrefill] {
		v.PrefillIntake = intakeVerdict(e.Config(), resp, engine.ServerPrefill)
	}
	if intake[engine.HalfDecode] {
		v.DecodeIntake = intakeVerdict(e.Config(), resp, engine.ServerDecode)
	}
	if written != nil || v.Stages[index[engine.StagePrefillTransfer]].State == StageDone {
		sent, committed := transferred(resp)
		v.Transfer = fmt.Sprintf("wrote %s %s into %s of %s reserved pages; decode commits %s %s",
			engine.Thousands(int64(sent)), plural(sent, "token", "tokens"), engine.Thousands(int64(written.Len())), engine.Thousands(int64(reserved.Len())),
			engine.Thousands(int64(committed)), plural(committed, "position", "positions"))
		if resp.PrefillRejected {
			v.Transfer += " (prefill's one placeholder token)"
		}
	}
	return v
}

// transferred is what prefill sends for r and what decode commits: each
// server's prompt, the placeholder where it rejected it.
func transferred(r engine.Response) (sent, committed int) {
	p, d := r.Tokens, r.Tokens
	if r.PrefillRejected {
		p = 1
	}
	if r.DecodeRejected {
		d = 1
	}
	return min(p, d), d
}

// intakeVerdict is one server's validate_input_length on r, in a line:
// "prefill: 125 ≥ 122 → FINISH_ABORT(400) pending, prompt swapped for [0]".
func intakeVerdict(c engine.Config, r engine.Response, s engine.Server) string {
	th := func(n int) string { return engine.Thousands(int64(n)) }
	limit := c.LimitsOf(s).MaxReqInputLen()
	rejected := r.PrefillRejected
	if s == engine.ServerDecode {
		rejected = r.DecodeRejected
	}
	// A request the door retired reserves nothing, whatever decode's intake said.
	reserves, retired := "reserves", ""
	if r.Allocated == 0 && r.State == engine.StateRejected {
		reserves, retired = "would reserve", " — the door retires it first"
	}
	if !rejected {
		v := fmt.Sprintf("%s: %s < %s → admitted", s, th(r.Tokens), th(limit))
		if s == engine.ServerDecode {
			v += fmt.Sprintf(", %s %s for %s tokens%s", reserves, pagesWord(c.ReservedPages(r.Tokens)), th(r.Tokens), retired)
		}
		return v
	}
	v := fmt.Sprintf("%s: %s ≥ %s → FINISH_ABORT(400) pending, prompt swapped for [0]", s, th(r.Tokens), th(limit))
	if s == engine.ServerDecode {
		v += fmt.Sprintf(", %s %s for it%s", reserves, pagesWord(1), retired)
	}
	return v
}

// pagesWord is "1 page", "8 pages".
func pagesWord(n int) string { return engine.Thousands(int64(n)) + " " + plural(n, "page", "pages") }

// doorSaw says what the admission door checked and ignored for r, once
// the request has reached it. A rejection with no page reserved was
// retired at the door; one with pages walked through it (decode rejected
// the prompt too, and answered the 400 after it ran).
func doorSaw(r engine.Response, door string) string {
	switch {
	case door == StageNever && r.Path == engine.PathAPIReject:
		return "Never reached: the API refused the prompt (longer than the context)."
	case door == StageNever || door == StageLater:
		return "Not reached yet."
	case r.Path != engine.PathPlaceholder:
		return "Checked req.finished(): false, and nothing is pending in to_finish — admitted."
	case r.Allocated == 0 && r.State == engine.StateRejected:
		return "Checked to_finish: FINISH_ABORT(400) pending — retired with its 400 before any page was allocated (no KV sender, no KV receiver)."
	}
	return "Checked req.finished(): false — admitted. Ignored: to_finish = FINISH_ABORT(400), pending since intake."
}

// routerWhy says why the router's box is struck through. The box is the
// router's answer to a client abort (engine.StageRouter, logged by
// engine/cancel.go as the cancel setting says), so a request whose client
// did not cancel never passes it. The same words for every request: a step
// to another request re-renders only the stages whose state changed.
const routerWhy = "Struck through: this box is the router's answer to a client abort (the “Router on client abort” setting), and this request's client did not cancel."
