package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// renderControls is the configuration form: preset, sizes and switches.
func (p *playground) renderControls() app.UI {
	s := p.s
	return app.Section().Class("panel").Aria("labelledby", "settings-h").Body(
		app.H2().ID("settings-h").Text("Engine settings"),
		p.renderPresetPicker(),
		p.numberField(fieldContext, "Context length (tokens)", "Advertised context window"),
		p.numberField(fieldPool, "KV pool size (tokens)", "max_total_num_tokens"),
		p.numberField(fieldPage, "Page size (tokens)", "Tokens per KV page"),
		p.numberField(fieldSlot, "Pages per slot", "Pages decode reserves per request"),
		app.Div().Class("field").Body(
			app.Label().For("mode").Text("Admission mode"),
			app.Select().ID("mode").Aria("describedby", "mode-hint").OnChange(p.onChoice("mode")).Body(
				app.Option().Value(string(engine.Vulnerable)).Selected(s.cfg.Mode == engine.Vulnerable).Text("vulnerable"),
				app.Option().Value(string(engine.Fixed)).Selected(s.cfg.Mode == engine.Fixed).Text("fixed"),
			),
			app.P().ID("mode-hint").Class("hint").Text(modeHint[s.cfg.Mode]),
		),
		app.Div().Class("field").Body(
			app.Label().For("cancel").Text("Router on client abort"),
			app.Select().ID("cancel").OnChange(p.onChoice("cancel")).Body(
				app.Option().Value(string(engine.CancelBoth)).Selected(s.cfg.Cancel == engine.CancelBoth).Text("cancel both halves"),
				app.Option().Value(string(engine.CancelOneHalf)).Selected(s.cfg.Cancel == engine.CancelOneHalf).Text("cancel only the half that saw it"),
			),
		),
		app.Div().Class("field field-check").Body(
			app.Input().Type("checkbox").ID("scrub").Checked(s.cfg.ScrubOnFree).OnChange(p.onScrub),
			app.Label().For("scrub").Text("Scrub pages on free (one write per freed page)"),
		),
		app.If(s.notice != "", func() app.UI {
			return app.P().ID("notice").Class("notice").Role("alert").Text(s.notice)
		}),
	)
}

var modeHint = map[engine.Mode]string{
	engine.Vulnerable: "Pre-patch: the door checks only “finished”, so a pending rejection walks through.",
	engine.Fixed:      "Patched (SGLang #38704): a pending rejection is retired before any page is allocated.",
}

func (p *playground) renderPresetPicker() app.UI {
	presets := engine.Presets()
	desc := "Your own settings."
	opts := []app.UI{app.Option().Value("").Selected(p.s.preset == "").Text("— custom —")}
	for _, pr := range presets {
		opts = append(opts, app.Option().Value(pr.Slug).Selected(p.s.preset == pr.Slug).Text(pr.Name))
		if pr.Slug == p.s.preset {
			desc = pr.Description
		}
	}
	return app.Div().Class("field").Body(
		app.Label().For("preset").Text("Scenario"),
		app.Select().ID("preset").Aria("describedby", "preset-desc").OnChange(p.onPreset).Body(opts...),
		app.P().ID("preset-desc").Class("hint").Text(desc),
	)
}

// numberField is a text input that takes "681280", "681,280" or "1Mi".
func (p *playground) numberField(id, label, hint string) app.UI {
	msg := p.s.errs[id]
	in := app.Input().Type("text").ID(id).Attr("inputmode", "numeric").Attr("autocomplete", "off").
		Attr("spellcheck", "false").Value(p.s.text[id]).Aria("describedby", id+"-hint").
		OnChange(p.onNumber(id))
	if msg != "" {
		in = in.Aria("invalid", "true").Aria("describedby", id+"-error "+id+"-hint")
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		in,
		app.P().ID(id+"-hint").Class("hint").Text(hint),
		app.If(msg != "", func() app.UI {
			return app.P().ID(id + "-error").Class("field-error").Role("alert").Text(msg)
		}),
	)
}

func (p *playground) onNumber(id string) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.s.setNumber(id, value(ctx)); p.sync(ctx) }
}

func (p *playground) onChoice(field string) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.s.setChoice(field, value(ctx)); p.sync(ctx) }
}

func (p *playground) onScrub(ctx app.Context, e app.Event) {
	v := "false"
	if ctx.JSSrc().Get("checked").Bool() {
		v = "true"
	}
	p.s.setChoice("scrub", v)
	p.sync(ctx)
}

func (p *playground) onPreset(ctx app.Context, e app.Event) {
	if slug := value(ctx); slug != "" {
		p.s.loadPreset(slug)
		p.sync(ctx)
	}
}
