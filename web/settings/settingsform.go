package settings

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// settingsForm is the engine settings: the scenario picker and one input
// per row of the field table (model.Settings). A new setting needs no
// change here.
type settingsForm struct {
	app.Compo

	IPresets  model.PresetView
	ISettings []model.SettingView
	INotice   string
	IView     model.View // how the run is shown: an embed's links stay in it

	onPreset func(ctx app.Context, slug string)
	onNumber func(ctx app.Context, f model.Field, text string) (shown string)
	onChoice func(ctx app.Context, f model.Field, value string)
	onFlag   func(ctx app.Context, f model.Field, on bool)
}

func NewSettingsForm() *settingsForm { return &settingsForm{} }

func (c *settingsForm) Presets(v model.PresetView) *settingsForm     { c.IPresets = v; return c }
func (c *settingsForm) Settings(v []model.SettingView) *settingsForm { c.ISettings = v; return c }
func (c *settingsForm) Notice(v string) *settingsForm                { c.INotice = v; return c }
func (c *settingsForm) View(v model.View) *settingsForm              { c.IView = v; return c }

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
	widget.CountRender("settingsForm")
	return app.Section().ID("settings").Class("panel").Aria("labelledby", "settings-h").Body(
		app.Raw(`<h2 id="settings-h">Engine settings</h2>`),
		c.renderPresets(),
		NewRows().Settings(c.ISettings).View(c.IView).OnNumber(c.onNumber).OnChoice(c.onChoice).OnFlag(c.onFlag),
		app.If(c.INotice != "", func() app.UI {
			return app.P().ID("notice").Class("notice").Role("alert").Text(c.INotice)
		}),
	)
}

func (c *settingsForm) renderPresets() app.UI {
	v := c.IPresets
	opts := make([]app.UI, len(v.Options))
	for i, o := range v.Options {
		opts[i] = widget.Option(o.Value, o.Label, o.Value == v.Selected)
	}
	return app.Div().Class("field").Body(
		widget.Label("preset", "Scenario"),
		app.Select().ID("preset").Aria("describedby", "preset-desc").OnChange(widget.Safe(c.onPresetChange)).Body(opts...),
		widget.Hint("preset-desc", "Scenario", v.Description),
	)
}

func (c *settingsForm) onPresetChange(ctx app.Context, e app.Event) { c.onPreset(ctx, dom.Value(ctx)) }
