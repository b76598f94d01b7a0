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
				option(string(engine.Vulnerable), "vulnerable", s.cfg.Mode == engine.Vulnerable),
				option(string(engine.Fixed), "fixed", s.cfg.Mode == engine.Fixed),
			),
			app.P().ID("mode-hint").Class("hint").Text(modeHint[s.cfg.Mode]),
		),
		app.Div().Class("field").Body(
			app.Label().For("cancel").Text("Router on client abort"),
			app.Select().ID("cancel").OnChange(p.onChoice("cancel")).Body(
				option(string(engine.CancelBoth), "cancel both halves", s.cfg.Cancel == engine.CancelBoth),
				option(string(engine.CancelOneHalf), "cancel only the half that saw it", s.cfg.Cancel == engine.CancelOneHalf),
			),
		),
		app.Div().Class("field field-check").Body(
			checkbox("scrub", s.cfg.ScrubOnFree).OnChange(p.onScrub),
			app.Label().For("scrub").Text("Scrub pages on free (one write per freed page)"),
		),
		app.If(s.notice != "", func() app.UI {
			return app.P().ID("notice").Class("notice").Role("alert").Text(s.notice)
		}),
	)
}

// presetCustom is the picker's value for settings that match no preset.
const presetCustom = "custom"

var modeHint = map[engine.Mode]string{
	engine.Vulnerable: "Pre-patch: the door checks only “finished”, so a pending rejection walks through.",
	engine.Fixed:      "Patched (SGLang #38704): a pending rejection is retired before any page is allocated.",
}

func (p *playground) renderPresetPicker() app.UI {
	presets := engine.Presets()
	desc := "Your own settings."
	opts := []app.UI{option(presetCustom, "— custom —", p.s.preset == "")}
	for _, pr := range presets {
		opts = append(opts, option(pr.Slug, pr.Name, p.s.preset == pr.Slug))
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
	return func(ctx app.Context, e app.Event) {
		p.s.setNumber(id, value(ctx))
		ctx.JSSrc().Set("value", p.s.text[id]) // the virtual DOM may already hold this text
		p.sync(ctx)
	}
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
	if slug := value(ctx); slug != presetCustom {
		p.s.loadPreset(slug)
		p.sync(ctx)
	}
}
