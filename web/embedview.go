package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/model"
	"kvleak/web/pool"
	"kvleak/web/run"
	"kvleak/web/settings"
	"kvleak/web/share"
	"kvleak/web/widget"
)

// renderEmbed is the page in an iframe: the result first — the verdict, a
// vulnerable/fixed switch and a replay button, the pipeline and the pool at
// the selected step — and the settings one disclosure away. With view= it
// is that one panel alone.
func (p *playground) renderEmbed(v pageViews, cls string) app.UI {
	main := app.Main().ID("playground").Class(cls).DataSet("ready", widget.BoolText(p.ready))
	if v.view.Panel != "" {
		main = main.DataSet("panel", v.view.Panel)
	}
	head := []app.UI{
		share.NewCaption().Name(v.presetName).Href("?" + v.fullQuery),
		p.alerts(),
	}
	return main.Body(append(head, p.embedPanels(v)...)...)
}

// embedPanels are the embed's panels: all of them, or the one view= names.
func (p *playground) embedPanels(v pageViews) []app.UI {
	pipeline := func() app.UI { return run.NewPipelineView().Pipeline(v.pipeline).Dragged(p.dragged) }
	pool := func() app.UI {
		return pool.NewPoolView().Pool(v.pool).Prefill(v.prefill).FoldPrefill(v.view.Panel == "").Compare(v.view.Compare).Scrubbing(p.scrubbing).
			OnZoom(p.onZoom).OnZoomOut(p.onZoomOut).OnCompare(p.onCompare)
	}
	switch v.view.Panel {
	case "pipeline":
		return []app.UI{pipeline()}
	case "pool":
		// Alone, the pool still says what the run came to (and, app.css,
		// what its marks mean).
		return []app.UI{run.VerdictLine(v.response), pool()}
	case "compare":
		return []app.UI{run.NewCompareView().Comparison(v.compare).Err(v.compareErr)}
	case "transcript":
		return []app.UI{run.NewTranscriptView().Response(v.response)}
	}
	// A challenge open (view=challenge&challenge=N, for a course or a
	// talk) stands over the compact playground, its request form unfolded.
	return []app.UI{
		p.challengeSlot(v),
		run.NewResponsePanel().Response(v.response),
		share.NewEmbedBar().Mode(engine.Mode(v.mode)).Playing(v.playing).Steps(v.steps).
			OnMode(func(ctx app.Context, m engine.Mode) { p.onChoice(ctx, model.Mode, string(m)) }).OnPlay(p.onPlay),
		run.NewStepper().Step(v.step).Of(v.steps).Playing(v.playing).OnStepBy(p.onStepBy).OnPlay(p.onPlay),
		slot("compare-slot", v.view.Compare, func() app.UI { return run.NewCompareView().Comparison(v.compare).Err(v.compareErr) }),
		pipeline(),
		pool(),
		app.If(!v.view.ReadOnly, func() app.UI {
			box := app.Details().ID("embed-settings").Class("panel")
			if v.challenge.Open {
				box = box.Open(true)
			}
			return box.Body(
				app.Raw(`<summary>Settings, requests and the step-by-step log</summary>`),
				run.NewScrubber().Step(v.step).Of(v.steps).Marks(v.marks).OnSelect(p.onScrub).OnDone(p.onScrubEnd),
				settings.NewSettingsForm().Presets(v.presets).Settings(v.settings).View(v.view).Notice(v.notice).
					OnPreset(p.onPreset).OnNumber(p.onNumber).OnChoice(p.onChoice).OnFlag(p.onFlag),
				run.NewRequestForm().Form(v.request).
					OnText(p.onText).OnNumber(p.onNumber).OnTenant(p.onTenant).OnEnd(p.onEnd).OnAction(p.onFormAction),
				run.NewEventLog().Events(v.events).Selected(v.selected).OnSelect(p.onSelectStep),
			)
		}),
	}
}
