package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
)

// settingsForm is the engine settings: the scenario picker and one input
// per row of the field table (model.Settings). A new setting needs no
// change here.
type settingsForm struct {
	app.Compo

	IPresets  model.PresetView
	ISettings []model.SettingView
	INotice   string

	onPreset func(ctx app.Context, slug string)
	onNumber func(ctx app.Context, f model.Field, text string) (shown string)
	onChoice func(ctx app.Context, f model.Field, value string)
	onFlag   func(ctx app.Context, f model.Field, on bool)
}

func newSettingsForm() *settingsForm { return &settingsForm{} }

func (c *settingsForm) Presets(v model.PresetView) *settingsForm     { c.IPresets = v; return c }
func (c *settingsForm) Settings(v []model.SettingView) *settingsForm { c.ISettings = v; return c }
func (c *settingsForm) Notice(v string) *settingsForm                { c.INotice = v; return c }

func (c *settingsForm) OnPreset(fn func(app.Context, string)) *settingsForm {
	c.onPreset = fn
	return c
}

// OnNumber applies a number field's text and returns what the field shows
// then (the number normalised, or the text as typed when refused).
func (c *settingsForm) OnNumber(fn func(app.Context, model.Field, string) string) *settingsForm {
	c.onNumber = fn
	return c
}

func (c *settingsForm) OnChoice(fn func(app.Context, model.Field, string)) *settingsForm {
	c.onChoice = fn
	return c
}

func (c *settingsForm) OnFlag(fn func(app.Context, model.Field, bool)) *settingsForm {
	c.onFlag = fn
	return c
}

func (c *settingsForm) Render() app.UI {
	countRender("settingsForm")
	fields := []app.UI{app.H2().ID("settings-h").Text("Engine settings"), c.renderPresets()}
	for _, v := range c.ISettings {
		fields = append(fields, c.renderSetting(v))
	}
	fields = append(fields, app.If(c.INotice != "", func() app.UI {
		return app.P().ID("notice").Class("notice").Role("alert").Text(c.INotice)
	}))
	return app.Section().Class("panel").Aria("labelledby", "settings-h").Body(fields...)
}

func (c *settingsForm) renderPresets() app.UI {
	v := c.IPresets
	opts := make([]app.UI, len(v.Options))
	for i, o := range v.Options {
		opts[i] = option(o.Value, o.Label, o.Value == v.Selected)
	}
	return app.Div().Class("field").Body(
		app.Label().For("preset").Text("Scenario"),
		app.Select().ID("preset").Aria("describedby", "preset-desc").OnChange(safe(c.onPresetChange)).Body(opts...),
		app.P().ID("preset-desc").Class("hint").Text(v.Description),
	)
}

func (c *settingsForm) onPresetChange(ctx app.Context, e app.Event) { c.onPreset(ctx, dom.Value(ctx)) }

func (c *settingsForm) renderSetting(v model.SettingView) app.UI {
	switch v.Field.Kind() {
	case model.KindSet:
		return newDoorFieldset().Setting(v).OnChoice(c.onChoice)
	case model.KindChoice:
		return choiceField(v, safe(c.onChoiceChange))
	case model.KindFlag:
		id := v.Field.ID()
		box := checkbox(id, v.On).DataSet("field", int(v.Field)).OnChange(safe(c.onFlagChange))
		if v.Hint != "" {
			box = box.Aria("describedby", id+"-hint")
		}
		return app.Div().Class("field field-check").Body(
			box,
			app.Label().For(id).Text(v.Field.Label()),
			app.If(v.Hint != "", func() app.UI { return app.P().ID(id + "-hint").Class("hint").Text(v.Hint) }),
		)
	}
	return numberField(v.Field, v.Text, v.Hint, v.Err, safe(c.onNumberChange), nil)
}

// The handlers read their field from the element (data-field): go-app keeps
// the first handler mounted on a reused element (web/dom's package doc).

func (c *settingsForm) onNumberChange(ctx app.Context, e app.Event) {
	dom.SetValue(ctx, c.onNumber(ctx, model.Field(dom.DataInt(ctx, "field")), dom.Value(ctx)))
}

func (c *settingsForm) onChoiceChange(ctx app.Context, e app.Event) {
	c.onChoice(ctx, model.Field(dom.DataInt(ctx, "field")), dom.Value(ctx))
}

func (c *settingsForm) onFlagChange(ctx app.Context, e app.Event) {
	c.onFlag(ctx, model.Field(dom.DataInt(ctx, "field")), dom.Checked(ctx))
}
