package web

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// renderLingering lists requests whose decode half still holds pages,
// waiting for the uncancelled prefill half, and lets the reader settle them.
func (p *playground) renderLingering() app.UI {
	ids := p.s.eng.Lingering()
	if len(ids) == 0 {
		return app.Text("")
	}
	return app.Section().ID("lingering").Class("panel lingering").Aria("labelledby", "lingering-h").Body(
		app.H2().ID("lingering-h").Text("Lingering halves"),
		app.Ul().Body(app.Range(ids).Slice(func(i int) app.UI {
			id := ids[i]
			btns := []app.UI{app.Span().Text(fmt.Sprintf("r%d (tenant %s) still holds its pages: ", id, p.s.eng.TenantOf(id)))}
			for _, o := range engine.Outcomes {
				btns = append(btns, app.Button().Type("button").Class("secondary").
					DataSet("settle", fmt.Sprintf("%d-%s", id, o)).Text(outcomeLabel[o]).OnClick(p.onSettle))
			}
			return app.Li().Body(btns...)
		})),
	)
}

var outcomeLabel = map[engine.Outcome]string{
	engine.OutcomeDrained: "prefill drains (ack)",
	engine.OutcomeTimeout: "ack times out",
	engine.OutcomeError:   "transfer errors",
}

// onSettle reads "<request>-<outcome>" from the button (see dom.go).
func (p *playground) onSettle(ctx app.Context, e app.Event) {
	id, o, _ := strings.Cut(ctx.JSSrc().Get("dataset").Get("settle").String(), "-")
	n, _ := strconv.Atoi(id)
	if p.s.settle(n, engine.Outcome(o)) == nil {
		p.sync(ctx)
	}
}
