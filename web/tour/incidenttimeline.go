package tour

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"html"

	"kvleak/web/model"
	"kvleak/web/widget"
)

// timelineView is the incident's dates from the article and SGLang's
// tracker, each linked to the preset that shows that moment, if one does.
type timelineView struct {
	app.Compo

	IPoints []model.IncidentPoint
}

func NewTimelineView() *timelineView { return &timelineView{} }

func (c *timelineView) Points(v []model.IncidentPoint) *timelineView { c.IPoints = v; return c }

func (c *timelineView) Render() app.UI {
	widget.CountRender("timelineView")
	return widget.Section("timeline", "timeline", "timeline-h", "The incident's timeline",
		app.Ol().Body(app.Range(c.IPoints).Slice(func(i int) app.UI {
			p := c.IPoints[i]
			return app.Li().DataSet("preset", p.Preset).Body(
				app.Raw(`<strong>`+html.EscapeString(p.When)+`</strong>`), app.Text(" "), app.Text(p.What), app.Text(" "),
				app.If(p.Href != "", func() app.UI { return app.A().Href(p.Href).Text("Show it: " + p.PresetName) }),
				app.If(p.Source != "", func() app.UI {
					return app.Span().Body(app.Text(" · "), app.A().Href(p.Source).Target("_blank").Rel("noopener").Text(p.SourceName+" (opens a new tab)"))
				}),
			)
		})),
	)
}
