package replaypanel

import (
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/deploycheck"
	"kvleak/engine"
	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// Panel is the Replay panel. Its inputs are the page's settings and
// whether the page is an embed; the log, the form and the result are its
// own.
type Panel struct {
	app.Compo

	IConfig engine.Config
	IEmbed  bool
	// IServers are the Deploy check's two servers' settings, nil until it
	// holds two: the panel then offers to replay at them.
	IServers *deploycheck.ServerSettings

	form model.ReplayForm
	errs map[string]string // the form's refused fields, by id

	// The log Replay reads: the last one given.
	source   source
	file     app.Value // the file picked or dropped
	fileName string
	fileSize int
	sample   string // a Samples key
	textLen  int    // bytes pasted

	running  bool
	progress model.ReplayProgress
	gen      atomic.Int64 // the run in progress; a new run or Cancel moves it on
	result   *model.ReplayView
	files    model.ReplayFiles // the result's files of whom to tell
	finished int               // replays finished, the result's data-run
	// resultHTML is the result's markup (resultMarkup), made once a result.
	resultHTML string
	took       timing // the last result's replay, in the page
	msg        string // why the last Replay did not replay
	announce   string
}

type source int

const (
	fromText source = iota
	fromFile
	fromSample
)

// Samples are the logs the site ships under web/traces/, fetched only
// when one is replayed.
var Samples = []struct{ Key, Label string }{
	{"mooncake-conversation", "Mooncake, conversation: 12,031 requests over an hour"},
	{"mooncake-synthetic", "Mooncake, synthetic: 3,993 requests"},
	{"azure-llm-code-2023", "Azure LLM inference, code (2023)"},
}

// New is an empty panel.
func New() *Panel { return &Panel{form: model.DefaultReplayForm()} }

// Config sets the page's settings, which a replay runs at.
func (c *Panel) Config(cfg engine.Config) *Panel { c.IConfig = cfg; return c }

// Embed says whether the page is an embed: the first leak's link then
// opens in the embed.
func (c *Panel) Embed(on bool) *Panel { c.IEmbed = on; return c }

// Servers sets the Deploy check's servers' settings, nil when it holds none.
func (c *Panel) Servers(s *deploycheck.ServerSettings) *Panel { c.IServers = s; return c }

func (c *Panel) Render() app.UI {
	f := c.form
	cfg := c.IConfig
	return widget.Section("replay", "replay", "replay-h", "Replay a request log",
		// Texts, labels and legends as raw markup (escaped): it costs the
		// wasm a fraction of go-app's element calls (docs/performance.md).
		app.Raw(`<p class="hint">How many of your responses would have leaked, and whose KV would each tenant have seen? Give a log of requests; it is streamed through the vulnerable server and the fixed one at this page's settings.</p>`),
		app.Raw(`<p id="replay-private" class="hint">Nothing you give leaves this page: the log is read and replayed in your browser.</p>`),
		app.Div().Class("row wrap replay-inputs").Body(
			app.Div().Class("field replay-paste").Body(
				app.Raw(`<label for="replay-text">Paste a log</label>`),
				app.Textarea().ID("replay-text").Rows(5).Spellcheck(false).Attr("autocomplete", "off").
					Placeholder("t,tenant,prompt_tokens,output_tokens\n0,A,120,4\n1,B,125,4").
					Aria("describedby", "replay-formats replay-private").OnInput(c.safe(c.onText)),
			),
			app.Div().Class("field replay-drop").On("dragover", c.onDragOver).On("drop", c.safe(c.onDrop)).Body(
				app.Raw(`<label for="replay-file">or pick or drop a file</label>`),
				app.Input().ID("replay-file").Type("file").Accept(".csv,.jsonl,.json,.txt,text/csv,application/json").
					Aria("describedby", "replay-formats").OnChange(c.safe(c.onFile)),
				app.Raw(`<label for="replay-sample">or replay a sample</label>`),
				app.Select().ID("replay-sample").OnChange(c.safe(c.onSample)).Body(
					option("", "— none —", c.sample == ""),
					app.Range(Samples).Slice(func(i int) app.UI {
						return option(Samples[i].Key, Samples[i].Label, c.sample == Samples[i].Key)
					}),
				),
			),
		),
		app.Raw(`<p id="replay-formats" class="hint">Formats: ours (JSONL {"t", "tenant", "prompt_tokens", "output_tokens"} or CSV t,tenant,prompt_tokens,output_tokens), Mooncake's JSONL traces, Azure's LLM inference CSV. Bad lines are skipped and named.</p>`),
		app.Raw(`<p id="replay-source" class="replay-source">`+html.EscapeString(c.sourceText())+`</p>`),
		app.Div().Class("row wrap replay-settings").Body(
			app.FieldSet().Class("replay-tenancy").Body(
				app.Raw(`<legend>Tenants, where the log names none</legend>`),
				radio("replay-own", !f.Shared, "Every request its own tenant", c.safe(c.onOwn)),
				radio("replay-shared", f.Shared, "Share them among N tenants by a seeded hash", c.safe(c.onShared)),
				c.field(model.ReplayTenantsID, "Tenants (N)", f.Tenants, "numeric", !f.Shared),
				c.field(model.ReplaySeedID, "Seed", f.Seed, "numeric", !f.Shared),
			),
			app.FieldSet().Class("replay-timing").Body(
				app.Raw(`<legend>Timing and the fleet: the replay's own model</legend>`),
				c.field(model.ReplayTPSID, "Prefill throughput (tokens/s)", f.PrefillTPS, "decimal", false),
				c.field(model.ReplayTPOTID, "Time per output token (ms)", f.TPOTms, "decimal", false),
				c.field(model.ReplayInstID, "Prefill/decode instances (round-robin; a session the log names stays on one)", f.Instances, "numeric", false),
			),
		),
		app.Raw(`<p id="replay-at" class="hint">`+html.EscapeString(fmt.Sprintf("Replays at this page's settings: context %s, prefill pool %s, decode pool %s tokens, pages of %s, decode's reserve %s tokens, the %s allocator, scrub %s.",
			engine.Thousands(int64(cfg.ContextTokens)), engine.Thousands(int64(cfg.PoolTokens)), engine.Thousands(int64(cfg.DecodePoolTokens)),
			engine.Thousands(int64(cfg.PageTokens)), engine.Thousands(int64(cfg.ReservedDecodeTokens)), cfg.Allocator, onOff(cfg.ScrubOnFree)))+`</p>`),
		app.Div().Class("row replay-actions").Body(
			app.Button().ID("replay-run").Type("button").Class("primary").Text(c.runLabel()).OnClick(c.safe(c.onRun)),
			app.If(c.running, func() app.UI {
				return app.Button().ID("replay-cancel").Type("button").Text("Cancel").OnClick(c.safe(c.onCancel))
			}),
		),
		app.If(c.IServers != nil, func() app.UI {
			return app.Div().Class("row wrap replay-from").Body(
				app.Button().ID("replay-from-deploy").Type("button").Text("Replay at these servers' settings").
					Aria("describedby", "replay-deploy-settings").OnClick(c.safe(c.onRun)),
				app.Raw(`<p id="replay-deploy-settings" class="hint">`+html.EscapeString(strings.Join(append([]string{model.DescribeServers(c.IServers)}, c.IServers.Notes...), " "))+`</p>`))
		}),
		app.If(c.running, func() app.UI { return c.progressBar() }),
		app.If(c.msg != "", func() app.UI {
			return app.Raw(`<p id="replay-msg" class="field-error">` + html.EscapeString(c.msg) + `</p>`)
		}),
		app.Div().ID("replay-status").Class("visually-hidden").Role("status").Aria("live", "polite").Text(c.announce),
		c.resultView(),
	)
}

func (c *Panel) runLabel() string {
	if c.result != nil || c.running {
		return "Replay again"
	}
	return "Replay"
}

// sourceText says which log Replay reads.
func (c *Panel) sourceText() string {
	switch c.source {
	case fromFile:
		return fmt.Sprintf("Replay reads the file %s (%s bytes).", c.fileName, engine.Thousands(int64(c.fileSize)))
	case fromSample:
		if i := sampleIndex(c.sample); i >= 0 {
			return "Replay reads the sample: " + Samples[i].Label + "."
		}
	}
	if c.textLen == 0 {
		return "Paste a log, pick a file or a sample, then press Replay."
	}
	return fmt.Sprintf("Replay reads the pasted log (%s bytes).", engine.Thousands(int64(c.textLen)))
}

// progressBar is the replay's progress, by the bytes of the log read.
func (c *Panel) progressBar() app.UI {
	p := c.progress
	pct := 0
	if p.Size > 0 {
		pct = int(p.Read * 100 / p.Size)
	}
	return app.Raw(`<div class="replay-progress"><label for="replay-progress">Replaying</label><progress id="replay-progress" max="` +
		strconv.FormatInt(max(p.Size, 1), 10) + `" value="` + strconv.FormatInt(p.Read, 10) + `"></progress><span class="hint">` +
		strconv.Itoa(pct) + `%: ` + engine.Thousands(int64(p.Requests)) + ` requests</span></div>`)
}

// field is one of the form's text fields, with its message when refused.
func (c *Panel) field(id, label, value, mode string, disabled bool) app.UI {
	msg := c.errs[id]
	in := app.Input().ID(id).Type("text").Attr("inputmode", mode).Value(value).Attr("autocomplete", "off").
		Aria("invalid", msg != "").OnChange(c.safe(c.onField))
	if disabled || app.IsClient {
		in = in.Disabled(disabled)
	}
	if msg != "" {
		in = in.Aria("describedby", id+"-error")
	}
	return app.Div().Class("field").Body(
		app.Raw(`<label for="`+id+`">`+html.EscapeString(label)+`</label>`),
		in,
		app.If(msg != "", func() app.UI {
			return app.Raw(`<p id="` + id + `-error" class="field-error">` + html.EscapeString(msg) + `</p>`)
		}),
	)
}

func radio(id string, checked bool, label string, h app.EventHandler) app.UI {
	in := app.Input().Type("radio").ID(id).Name("replay-tenancy").OnChange(h)
	if checked || app.IsClient {
		in = in.Checked(checked)
	}
	return app.Div().Class("check").Body(in, app.Raw(`<label for="`+id+`">`+html.EscapeString(label)+`</label>`))
}

// option leaves a false selected out of the prerendered page, where HTML
// would read selected="false" as true (web/attrs.go says why).
func option(value, label string, selected bool) app.HTMLOption {
	o := app.Option().Value(value).Text(label)
	if selected || app.IsClient {
		o = o.Selected(selected)
	}
	return o
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func (c *Panel) onText(ctx app.Context, e app.Event) {
	c.source, c.textLen = fromText, len(dom.Value(ctx))
}

func (c *Panel) onFile(ctx app.Context, e app.Event) {
	file, size, ok := dom.ChosenFile(ctx)
	if !ok {
		return
	}
	c.takeFile(file, size)
}

func (c *Panel) onDragOver(ctx app.Context, e app.Event) { e.PreventDefault() }

func (c *Panel) onDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if file, ok := dom.DroppedFile(e); ok {
		c.takeFile(file, file.Get("size").Int())
	}
}

func (c *Panel) takeFile(file app.Value, size int) {
	c.source, c.file, c.fileName, c.fileSize = fromFile, file, file.Get("name").String(), size
}

// onSample takes a sample by its key; any other value is "none" — such as
// the none option's, which arrives as its text: go-app drops the empty
// value attribute.
func (c *Panel) onSample(ctx app.Context, e app.Event) {
	c.sample = sampleKey(dom.Value(ctx))
	if c.sample != "" {
		c.source = fromSample
	} else if c.file != nil {
		c.source = fromFile
	} else {
		c.source = fromText
	}
}

// sampleKey is v if it is a sample's key, else "".
func sampleKey(v string) string {
	if sampleIndex(v) < 0 {
		return ""
	}
	return v
}

// sampleIndex is the index in Samples of the sample of that key, or -1.
func sampleIndex(key string) int {
	return slices.IndexFunc(Samples, func(s struct{ Key, Label string }) bool { return s.Key == key })
}

func (c *Panel) onOwn(ctx app.Context, e app.Event) { c.form.Shared = false; c.check() }

func (c *Panel) onShared(ctx app.Context, e app.Event) { c.form.Shared = true; c.check() }

// onField takes a field's text and says at once what is wrong with it.
func (c *Panel) onField(ctx app.Context, e app.Event) {
	v := dom.Value(ctx)
	switch dom.SourceID(ctx) {
	case model.ReplayTenantsID:
		c.form.Tenants = v
	case model.ReplaySeedID:
		c.form.Seed = v
	case model.ReplayTPSID:
		c.form.PrefillTPS = v
	case model.ReplayTPOTID:
		c.form.TPOTms = v
	case model.ReplayInstID:
		c.form.Instances = v
	}
	c.check()
}

func (c *Panel) check() { _, c.errs = c.form.Options(c.IConfig) }
