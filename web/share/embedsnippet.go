package share

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// embedChoice is what the Embed snippet's options chose: one panel or the
// compact playground, a forced theme, read-only, and a frame of a fixed
// height instead of one the snippet's script sizes.
type embedChoice struct {
	panel, theme string
	readOnly     bool
	fixed        bool
}

// choiceAll is the options' value for "no choice".
const choiceAll = "all"

// snippet is the iframe for the link, with the choice's keys, and unless
// the choice is a fixed height the few lines of script that size the frame
// to its content: the frame posts its height (dom.ReportHeight), and the
// script believes a message only from a playground frame at the link's
// origin. Several frames on one page each get their own height.
func (e embedChoice) snippet(link string) string {
	for _, kv := range [][2]string{{"view", e.panel}, {"theme", e.theme}} {
		if kv[1] != "" {
			link += "&" + kv[0] + "=" + kv[1]
		}
	}
	if e.readOnly {
		link += "&ro=1"
	}
	height := 700
	if e.panel != "" {
		height = 520
	}
	frame := fmt.Sprintf(`<iframe src=%q title="KV-cache leak playground" width="100%%" height="%d" style="border:0" loading="lazy" data-kvleak></iframe>`, link, height)
	if e.fixed {
		return frame
	}
	origin := ""
	if u, err := url.Parse(link); err == nil {
		origin = u.Scheme + "://" + u.Host
	}
	return frame + "\n" + strings.NewReplacer("ORIGIN", origin, "TYPE", dom.HeightMessage).Replace(sizeScript)
}

// sizeScript sizes a snippet's frames to the heights they post.
const sizeScript = `<script>
addEventListener("message", function (e) {
  var h = e.data && e.data.type === "TYPE" && Math.round(e.data.height);
  if (e.origin !== "ORIGIN" || !(h > 0)) return;
  document.querySelectorAll("iframe[data-kvleak]").forEach(function (f) {
    if (f.contentWindow === e.source) f.height = Math.min(Math.max(h, 200), 20000);
  });
});
</script>`

// embedOptions are the snippet's choices.
func (c *sharePanel) embedOptions() app.UI {
	// go-app leaves out an empty value attribute, so "" is spelt out here.
	panels := []app.UI{widget.Option(choiceAll, "the compact playground", c.embed.panel == "")}
	for _, p := range model.Panels {
		panels = append(panels, widget.Option(p, "the "+p+" alone", c.embed.panel == p))
	}
	themes := []app.UI{widget.Option(choiceAll, "the reader's", c.embed.theme == "")}
	for _, t := range model.Themes {
		themes = append(themes, widget.Option(t, t, c.embed.theme == t))
	}
	return app.FieldSet().ID("embed-options").Class("embed-options").Body(
		app.Raw(`<legend>Embed options</legend>`),
		app.Div().Class("field").Body(
			widget.Label("embed-view", "Show"),
			app.Select().ID("embed-view").OnChange(widget.Safe(c.onEmbedOption)).Body(panels...),
		),
		app.Div().Class("field").Body(
			widget.Label("embed-theme", "Colours"),
			app.Select().ID("embed-theme").OnChange(widget.Safe(c.onEmbedOption)).Body(themes...),
		),
		app.Div().Class("field field-check").Body(
			widget.Checkbox("embed-ro", c.embed.readOnly).OnChange(widget.Safe(c.onEmbedOption)),
			widget.Label("embed-ro", "Read-only (no settings)"),
		),
		app.Div().Class("field field-check").Body(
			widget.Checkbox("embed-fit", !c.embed.fixed).OnChange(widget.Safe(c.onEmbedOption)),
			widget.Label("embed-fit", "Size the frame to its content (adds a few lines of script)"),
		),
	)
}

// onEmbedOption reads the options back from the form and remakes the
// snippet.
func (c *sharePanel) onEmbedOption(ctx app.Context, e app.Event) {
	val := dom.Value(ctx)
	if val == choiceAll {
		val = ""
	}
	switch dom.SourceID(ctx) {
	case "embed-view":
		c.embed.panel = val
	case "embed-theme":
		c.embed.theme = val
	case "embed-ro":
		c.embed.readOnly = dom.Checked(ctx)
	case "embed-fit":
		c.embed.fixed = !dom.Checked(ctx)
	}
	c.snippet = c.embed.snippet(absolute(ctx, c.ILinks.EmbedQuery))
}
