package run

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// scrubMarks is the scrubber's marks: where requests start and where they
// end, placed by the model, one raw list patched in place (dom.Marks). As a
// component of its own it renders only when the marks change, not at every
// step.
type scrubMarks struct {
	app.Compo

	IMarks []model.PlacedMark

	list dom.Island[model.PlacedMark]
}

func newScrubMarks() *scrubMarks { return &scrubMarks{} }

func (c *scrubMarks) Marks(v []model.PlacedMark) *scrubMarks { c.IMarks = v; return c }

// OnUpdate patches the list when it can (dom.Island.Patch).
func (c *scrubMarks) OnUpdate(ctx app.Context) {
	if app.IsClient && c.Mounted() {
		c.list.Patch(c.JSValue(), dom.Marks, c.IMarks)
	}
}

func (c *scrubMarks) Render() app.UI {
	widget.CountRender("scrubMarks")
	return app.Raw(c.list.Render(dom.Marks, c.IMarks)[0])
}
