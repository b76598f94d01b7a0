package settings

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// rows is one input per setting it is given, by the setting's kind: the
// settings form's, and a section's own (the door's checklist, the gateway).
type rows struct {
	app.Compo

	ISettings []model.SettingView
	IView     model.View

	onNumber func(ctx app.Context, f model.Field, text string) (shown string)
	onChoice func(ctx app.Context, f model.Field, value string)
	onFlag   func(ctx app.Context, f model.Field, on bool)
}

func NewRows() *rows { return &rows{} }

func (c *rows) Settings(v []model.SettingView) *rows { c.ISettings = v; return c }
func (c *rows) View(v model.View) *rows              { c.IView = v; return c }

func (c *rows) OnNumber(fn func(app.Context, model.Field, string) string) *rows {
	c.onNumber = fn
	return c
}

func (c *rows) OnChoice(fn func(app.Context, model.Field, string)) *rows { c.onChoice = fn; return c }
func (c *rows) OnFlag(fn func(app.Context, model.Field, bool)) *rows     { c.onFlag = fn; return c }

func (c *rows) Render() app.UI {
	widget.CountRender("settingRows")
	out := make([]app.UI, len(c.ISettings))
	for i, v := range c.ISettings {
		out[i] = c.renderSetting(v)
	}
	return app.Div().Class("setting-rows").Body(out...)
}

func (c *rows) renderSetting(v model.SettingView) app.UI {
	switch v.Field.Kind() {
	case model.KindSet:
		return newDoorFieldset().Setting(v).View(c.IView).OnChoice(c.onChoice)
	case model.KindChoice:
		return widget.ChoiceField(v, widget.Safe(c.onChoiceChange))
	case model.KindFlag:
		id := v.Field.ID()
		box := widget.Checkbox(id, v.On).DataSet("field", int(v.Field)).OnChange(widget.Safe(c.onFlagChange))
		if v.Hint != "" {
			box = box.Aria("describedby", id+"-hint")
		}
		return app.Div().Class("field field-check").Body(
			box,
			widget.Label(id, v.Field.Label()),
			app.If(v.Hint != "", func() app.UI { return widget.Hint(id+"-hint", v.Field.Label(), v.Hint) }),
		)
	}
	return widget.NumberField(v.Field, v.Text, v.Hint, v.Err, widget.Safe(c.onNumberChange), nil)
}

// The handlers read their field from the element (data-field): go-app keeps
// the first handler mounted on a reused element (web/dom's package doc).

func (c *rows) onNumberChange(ctx app.Context, e app.Event) {
	dom.SetValue(ctx, c.onNumber(ctx, model.Field(dom.DataInt(ctx, "field")), dom.Value(ctx)))
}

func (c *rows) onChoiceChange(ctx app.Context, e app.Event) {
	c.onChoice(ctx, model.Field(dom.DataInt(ctx, "field")), dom.Value(ctx))
}

func (c *rows) onFlagChange(ctx app.Context, e app.Event) {
	c.onFlag(ctx, model.Field(dom.DataInt(ctx, "field")), dom.Checked(ctx))
}
