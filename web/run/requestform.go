package run

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// requestForm picks a tenant and describes the request to send. Its texts
// are bound as the reader types (OnInput), so Send reads nothing back from
// the page.
type requestForm struct {
	app.Compo

	IForm model.RequestView

	onText   func(ctx app.Context, f model.Field, text string)
	onNumber func(ctx app.Context, f model.Field, text string) (shown string)
	onTenant func(ctx app.Context, name string)
	onEnd    func(ctx app.Context, end string)
	onAction func(ctx app.Context, a FormAction)
}

// FormAction is what a button of the request form asks for.
type FormAction int

const (
	ActionSend FormAction = iota
	ActionReset
	ActionAddTenant
	ActionRename
)

func NewRequestForm() *requestForm { return &requestForm{} }

func (c *requestForm) Form(v model.RequestView) *requestForm { c.IForm = v; return c }

func (c *requestForm) OnText(fn func(app.Context, model.Field, string)) *requestForm {
	c.onText = fn
	return c
}

// OnNumber checks the prompt length when the field is left (OnText only
// stores it as typed).
func (c *requestForm) OnNumber(fn func(app.Context, model.Field, string) string) *requestForm {
	c.onNumber = fn
	return c
}

func (c *requestForm) OnTenant(fn func(app.Context, string)) *requestForm { c.onTenant = fn; return c }
func (c *requestForm) OnEnd(fn func(app.Context, string)) *requestForm    { c.onEnd = fn; return c }

// OnAction answers the form's buttons.
func (c *requestForm) OnAction(fn func(app.Context, FormAction)) *requestForm {
	c.onAction = fn
	return c
}

func (c *requestForm) Render() app.UI {
	widget.CountRender("requestForm")
	v := c.IForm
	tenants := make([]app.UI, len(v.Tenants))
	for i, t := range v.Tenants {
		tenants[i] = widget.Option(t, "Tenant "+t, t == v.Tenant)
	}
	ends := model.EndOptions()
	endOpts := make([]app.UI, len(ends))
	for i, o := range ends {
		endOpts[i] = widget.Option(o.Value, o.Label, o.Value == v.End)
	}
	// Fixed markup is raw, and the buttons' clicks reach one handler on the
	// section (onClick): it costs the wasm a fraction of go-app's element
	// calls (docs/performance.md).
	return app.Section().ID("request").Class("panel").Aria("labelledby", "request-h").OnClick(widget.Safe(c.onClick)).Body(
		app.Raw(`<h2 id="request-h">Send a request</h2>`),
		app.Div().Class("field").Body(
			widget.Label(model.Tenant.ID(), model.Tenant.Label()),
			app.Div().Class("row").Body(
				app.Select().ID(model.Tenant.ID()).OnChange(widget.Safe(c.onTenantChange)).Body(tenants...),
				app.Raw(`<button id="add-tenant" type="button" class="secondary" data-act="form" data-v="">Add tenant</button>`),
			),
			widget.FieldError(model.Tenant, v.Errs[model.Tenant]),
		),
		app.Div().Class("field").Body(
			widget.Label(model.TenantName.ID(), model.TenantName.Label()),
			app.Div().Class("row").Body(
				c.textInput(model.TenantName, v.Rename).Attr("maxlength", engine.MaxTenantLen).Placeholder("new name"),
				app.Raw(`<button id="rename" type="button" class="secondary" data-act="form" data-v="">Rename</button>`),
			),
			widget.FieldError(model.TenantName, v.Errs[model.TenantName]),
		),
		widget.NumberField(model.PromptTokens, v.Prompt, v.PromptHint, v.Errs[model.PromptTokens], widget.Safe(c.onPromptChange), widget.Safe(c.onInput)),
		app.Div().Class("field").Body(
			widget.Label(model.Secret.ID(), model.Secret.Label()),
			c.textInput(model.Secret, v.Secret).Attr("maxlength", engine.MaxContentLen),
			widget.FieldError(model.Secret, v.Errs[model.Secret]),
		),
		app.Div().Class("field").Body(
			widget.Label(model.MaxNew.ID(), model.MaxNew.Label()),
			c.textInput(model.MaxNew, v.MaxNew).Attr("inputmode", "numeric").Aria("describedby", model.MaxNew.ID()+"-hint"),
			widget.Hint(model.MaxNew.ID()+"-hint", model.MaxNew.Label(), model.MaxNew.Hint()),
			widget.FieldError(model.MaxNew, v.Errs[model.MaxNew]),
		),
		app.Div().Class("field").Body(
			widget.Label(model.EndEarly.ID(), model.EndEarly.Label()),
			app.Select().ID(model.EndEarly.ID()).OnChange(widget.Safe(c.onEndChange)).Body(endOpts...),
			widget.FieldError(model.EndEarly, v.Errs[model.EndEarly]),
		),
		app.Raw(`<div class="row actions"><button id="send" type="button" class="primary" data-act="form" data-v="">Send</button>`+
			`<button id="reset" type="button" class="secondary" data-act="form" data-v="" title="Start over with the current settings">Reset</button></div>`),
	)
}

// textInput is a text field bound to the session as the reader types, and
// when the field is left (a paste or autofill may fire only change).
func (c *requestForm) textInput(f model.Field, text string) app.HTMLInput {
	return app.Input().Type("text").ID(f.ID()).DataSet("field", int(f)).Attr("autocomplete", "off").
		Value(text).OnInput(widget.Safe(c.onInput)).OnChange(widget.Safe(c.onInput))
}

// formActions are the form's buttons' actions, by their ids.
var formActions = map[string]FormAction{"send": ActionSend, "reset": ActionReset, "add-tenant": ActionAddTenant, "rename": ActionRename}

// onClick answers a click on one of the form's buttons (dom.Clicked).
func (c *requestForm) onClick(ctx app.Context, e app.Event) {
	if act, _, id := dom.Clicked(e); act == "form" {
		c.onAction(ctx, formActions[id])
	}
}

func (c *requestForm) onInput(ctx app.Context, e app.Event) {
	c.onText(ctx, model.Field(dom.DataInt(ctx, "field")), dom.Value(ctx))
}

func (c *requestForm) onTenantChange(ctx app.Context, e app.Event) { c.onTenant(ctx, dom.Value(ctx)) }
func (c *requestForm) onEndChange(ctx app.Context, e app.Event)    { c.onEnd(ctx, dom.Value(ctx)) }

func (c *requestForm) onPromptChange(ctx app.Context, e app.Event) {
	c.onNumber(ctx, model.PromptTokens, dom.Value(ctx))
}
