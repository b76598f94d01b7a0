package settings

import (
	"html"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// doorFieldset is "What the door retires": a box per pending terminal
// state, the article's two doors as presets, and for each state what walks
// through when it is not retired, with the scenario that shows it.
type doorFieldset struct {
	app.Compo

	ISetting model.SettingView
	IView    model.View // an embed's "See it" links stay in the embed

	onChoice func(ctx app.Context, f model.Field, value string)
}

func newDoorFieldset() *doorFieldset { return &doorFieldset{} }

func (c *doorFieldset) Setting(v model.SettingView) *doorFieldset { c.ISetting = v; return c }
func (c *doorFieldset) View(v model.View) *doorFieldset           { c.IView = v; return c }

func (c *doorFieldset) OnChoice(fn func(app.Context, model.Field, string)) *doorFieldset {
	c.onChoice = fn
	return c
}

func (c *doorFieldset) Render() app.UI {
	widget.CountRender("doorFieldset")
	v := c.ISetting
	id := v.Field.ID()
	presets := make([]app.UI, len(v.Options))
	for i, o := range v.Options {
		presets[i] = app.Button().Type("button").Class("secondary").ID(id+"-preset-"+presetKey(o.Value)).
			DataSet("door", o.Value).Aria("pressed", widget.BoolText(o.Value == v.Value)).Text(o.Label).OnClick(widget.Safe(c.onPreset))
	}
	items := make([]app.UI, len(v.Set))
	e := html.EscapeString
	for i, it := range v.Set {
		box := id + "-" + it.Value
		items[i] = app.Li().DataSet("state", it.Value).Body(
			widget.Checkbox(box, it.On).DataSet("state", it.Value).Aria("describedby", box+"-hint").OnChange(widget.Safe(c.onBox)),
			// Texts as raw markup where no link is (escaped): it costs the wasm a fraction
			// of go-app's element calls (docs/performance.md).
			widget.Label(box, it.Label),
			app.P().ID(box+"-hint").Class("hint").Body(
				app.Raw(`<strong>Retired: </strong>`), app.Text(it.Retired), app.Raw(`<br>`),
				app.Raw(`<strong>Not retired: </strong>`), app.Text(it.Unchecked), app.Text(" "),
				// An element, for go-app to put the link under a prefixed site's path.
				app.A().Href(model.PresetHrefIn(c.IView, it.Preset)).DataSet("preset", it.Preset).Text("See it: "+it.PresetName),
			),
		)
	}
	return app.FieldSet().ID(id).Class("field door").Aria("describedby", id+"-hint").Body(
		app.Raw(`<legend>`+e(v.Field.Label())+`</legend>`),
		app.Raw(`<p id="`+e(id)+`-hint" class="hint">`+e(v.Hint)+`</p>`),
		app.Div().Class("door-presets").Role("group").Aria("label", "The door's presets").Body(presets...),
		app.Ul().Class("door-states").Body(items...),
		widget.FieldError(v.Field, v.Err),
	)
}

// presetKey makes a DOM id part of a door preset's value ("" is the mode's).
func presetKey(v string) string {
	if v == "" {
		return "mode"
	}
	return v
}

func (c *doorFieldset) onPreset(ctx app.Context, e app.Event) {
	c.onChoice(ctx, c.ISetting.Field, dom.Data(ctx, "door"))
}

func (c *doorFieldset) onBox(ctx app.Context, e app.Event) {
	state := dom.Data(ctx, "state")
	c.onChoice(ctx, c.ISetting.Field, c.ISetting.Toggled(state, dom.Checked(ctx)))
}
