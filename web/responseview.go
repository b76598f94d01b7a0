package web

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// renderResponse shows the last response: status, verdict and a body whose
// every part names the page and tenant it came from.
func (p *playground) renderResponse() app.UI {
	r, ok := p.lastResponse()
	status, verdict, announce, cls := "—", "No request sent yet.", "", "verdict"
	if ok {
		status, verdict, announce = strconv.Itoa(r.Status), r.Verdict(), r.Announcement()
		switch {
		case r.Leaked():
			cls += " verdict-leak"
		case r.WrongStatus:
			cls += " verdict-wrong"
		case r.Status == 200:
			cls += " verdict-ok"
		default:
			cls += " verdict-refused"
		}
	}
	return app.Section().Class("panel response").Aria("labelledby", "response-h").Body(
		app.H2().ID("response-h").Text("Last response"),
		app.P().Class("status-line").Body(
			app.Span().Text("HTTP "),
			app.Output().ID("status").Class("status").Text(status),
			app.If(ok, func() app.UI {
				return app.Span().Class("status-who").Text(fmt.Sprintf(" to tenant %s (request r%d, %s tokens)", r.Tenant, r.Request, engine.Thousands(int64(r.Tokens))))
			}),
		),
		app.P().ID("verdict").Class(cls).Text(verdict),
		app.Div().ID("announce").Class("visually-hidden").Role("status").Aria("live", "polite").Text(announce),
		app.If(ok && r.Reason != "", func() app.UI {
			return app.P().Class("reason").Body(app.Text("Error body: "), app.Code().Text(r.Reason))
		}),
		app.Ol().ID("response").Class("body").Aria("label", "Response body, by page").Body(
			app.Range(r.Body).Slice(func(i int) app.UI { return segmentItem(r.Body[i], r.Request) }),
		),
	)
}

func segmentItem(s engine.Segment, self int) app.UI {
	n := s.Pages.Len()
	who := "zeroed page"
	switch {
	case s.Writer == self:
		who = fmt.Sprintf("tenant %s · this request (r%d)", s.Tenant, s.Writer)
	case s.Writer != 0:
		who = fmt.Sprintf("tenant %s · r%d", s.Tenant, s.Writer)
	}
	cls := "seg"
	if s.Leaked {
		cls += " seg-leaked"
	}
	return app.Li().Class(cls).Body(
		app.Span().Class("seg-pages").Text(fmt.Sprintf("%s %s", pluralS(n, "page", "pages"), s.Pages)),
		app.Span().Class("seg-who").Text(who),
		app.If(s.Leaked, func() app.UI { return app.Strong().Class("seg-flag").Text("⚠ LEAKED") }),
		app.Code().Class("seg-text").Text(segmentText(s.Text, n)),
	)
}

func segmentText(text string, n int) string {
	if n == 1 {
		return text
	}
	return fmt.Sprintf("%s  ×%s", text, engine.Thousands(int64(n)))
}
