package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// renderRequestForm picks a tenant and describes the request to send.
func (p *playground) renderRequestForm() app.UI {
	s := p.s
	tenantOpts := make([]app.UI, len(s.tenants))
	for i, t := range s.tenants {
		tenantOpts[i] = option(t, "Tenant "+t, t == s.tenant)
	}
	endOpts := []app.UI{option(endNever, "runs to the end", s.end == endNever)}
	for _, st := range engine.CancelStages {
		v := "cancel:" + string(st)
		endOpts = append(endOpts, option(v, "client cancels at "+string(st), s.end == v))
	}
	endOpts = append(endOpts, option(endFail, "KV transfer fails", s.end == endFail))

	return app.Section().Class("panel").Aria("labelledby", "request-h").Body(
		app.H2().ID("request-h").Text("Send a request"),
		app.Div().Class("field").Body(
			app.Label().For(fieldTenant).Text("Tenant"),
			app.Div().Class("row").Body(
				app.Select().ID(fieldTenant).OnChange(p.onTenant).Body(tenantOpts...),
				app.Button().ID("add-tenant").Type("button").Class("secondary").Text("Add tenant").OnClick(p.onAddTenant),
			),
			p.fieldError(fieldTenant),
		),
		app.Div().Class("field").Body(
			app.Label().For(fieldRename).Text("Rename the selected tenant"),
			app.Div().Class("row").Body(
				app.Input().Type("text").ID(fieldRename).Attr("maxlength", engine.MaxTenantLen).Attr("autocomplete", "off").Placeholder("new name"),
				app.Button().ID("rename").Type("button").Class("secondary").Text("Rename").OnClick(p.onRename),
			),
			p.fieldError(fieldRename),
		),
		p.numberField(fieldTokens, "Prompt length (tokens)", "Longer than the pool takes the placeholder path"),
		app.Div().Class("field").Body(
			app.Label().For(fieldSecret).Text("Content (what each KV page it writes holds)"),
			app.Input().Type("text").ID(fieldSecret).Attr("autocomplete", "off").Attr("maxlength", engine.MaxContentLen).
				Value(s.text[fieldSecret]).OnChange(p.onSecret),
			p.fieldError(fieldSecret),
		),
		app.Div().Class("field").Body(
			app.Label().For(fieldEnd).Text("The request…"),
			app.Select().ID(fieldEnd).OnChange(p.onEnd).Body(endOpts...),
			p.fieldError(fieldEnd),
		),
		app.Div().Class("row actions").Body(
			app.Button().ID("send").Type("button").Class("primary").Text("Send").OnClick(p.onSend),
			app.Button().ID("reset").Type("button").Class("secondary").Text("Reset").
				Title("Start over with the current settings").OnClick(p.onReset),
		),
	)
}

func (p *playground) fieldError(id string) app.UI {
	msg := p.s.errs[id]
	return app.If(msg != "", func() app.UI {
		return app.P().ID(id + "-error").Class("field-error").Role("alert").Text(msg)
	})
}

func (p *playground) onTenant(ctx app.Context, e app.Event) { p.s.selectTenant(value(ctx)) }
func (p *playground) onAddTenant(ctx app.Context, e app.Event) {
	if err := p.s.addTenant(); err != nil {
		p.s.errs[fieldTenant] = err.Error()
	}
}

func (p *playground) onRename(ctx app.Context, e app.Event) {
	in := app.Window().GetElementByID(fieldRename)
	if p.s.renameTenant(in.Get("value").String()) == nil {
		in.Set("value", "")
	}
}

func (p *playground) onSecret(ctx app.Context, e app.Event) { p.s.text[fieldSecret] = value(ctx) }
func (p *playground) onEnd(ctx app.Context, e app.Event)    { p.s.end = value(ctx) }

func (p *playground) onSend(ctx app.Context, e app.Event) {
	// The tokens field may not have fired its change event yet.
	p.s.text[fieldTokens] = app.Window().GetElementByID(fieldTokens).Get("value").String()
	p.s.text[fieldSecret] = app.Window().GetElementByID(fieldSecret).Get("value").String()
	if p.s.send() == nil {
		p.playing = false
		p.sync(ctx)
		p.revealResult(ctx)
	}
}

func (p *playground) onReset(ctx app.Context, e app.Event) {
	p.playing = false
	p.s.reset()
	p.sync(ctx)
}

// revealResult brings the verdict into view on a phone, where it sits far
// above the form. Only there: scrolling forces a synchronous layout, which
// on a desktop cost more than the rest of a Send.
func (p *playground) revealResult(ctx app.Context) {
	if !p.narrow {
		return
	}
	ctx.Defer(func(app.Context) {
		if v := app.Window().GetElementByID("verdict"); v.Truthy() {
			v.Call("scrollIntoView", map[string]any{"block": "nearest"})
		}
	})
}
