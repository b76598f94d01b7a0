package experiments

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// lingeringPanel lists requests whose decode half still holds pages,
// waiting for the uncancelled prefill half, and lets the reader settle them.
type lingeringPanel struct {
	app.Compo

	IRequests []model.Lingering

	onSettle func(ctx app.Context, request int, o engine.Outcome)
}

func NewLingeringPanel() *lingeringPanel { return &lingeringPanel{} }

func (c *lingeringPanel) Requests(v []model.Lingering) *lingeringPanel { c.IRequests = v; return c }

func (c *lingeringPanel) OnSettle(fn func(app.Context, int, engine.Outcome)) *lingeringPanel {
	c.onSettle = fn
	return c
}

var outcomeLabel = map[engine.Outcome]string{
	engine.OutcomeDrained: "prefill drains (ack)",
	engine.OutcomeTimeout: "ack times out",
	engine.OutcomeError:   "transfer errors",
}

func (c *lingeringPanel) Render() app.UI {
	widget.CountRender("lingeringPanel")
	return app.Section().ID("lingering").Class("panel lingering").Aria("labelledby", "lingering-h").Body(
		app.Raw(`<h2 id="lingering-h">Lingering and waiting requests</h2>`),
		app.P().Class("hint").Text("Decode's deferred KV release holds a cancelled request's pages until prefill answers ABORT_ACK; upstream it is opt-in (enable_deferred_decode_kv_release), and the simulation runs it whenever the router cancels only one half."),
		app.Ul().Body(app.Range(c.IRequests).Slice(func(i int) app.UI {
			r := c.IRequests[i]
			if r.Waiting {
				return app.Li().DataSet("waiting", r.Request).Text(fmt.Sprintf(
					"r%d (tenant %s) waits for free pages (in DecodePreallocQueue, or prefill's waiting queue); SGLang retries it when pages are released — settle a lingering half above.", r.Request, r.Tenant))
			}
			btns := []app.UI{app.Span().Text(fmt.Sprintf("r%d (tenant %s) still holds its pages: ", r.Request, r.Tenant))}
			for _, o := range engine.Outcomes {
				btns = append(btns, app.Button().Type("button").Class("secondary").
					DataSet("settle", fmt.Sprintf("%d-%s", r.Request, o)).Text(outcomeLabel[o]).OnClick(widget.Safe(c.onSettleClick)))
			}
			return app.Li().Body(btns...)
		})),
	)
}

// onSettleClick reads "<request>-<outcome>" from the button (dom.Data).
func (c *lingeringPanel) onSettleClick(ctx app.Context, e app.Event) {
	id, o, _ := strings.Cut(dom.Data(ctx, "settle"), "-")
	n, err := strconv.Atoi(id)
	if err != nil {
		return
	}
	c.onSettle(ctx, n, engine.Outcome(o))
}
