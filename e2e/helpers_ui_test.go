package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Small, generic helpers for driving the playground's DOM. Every wait is on
// a DOM condition, through waitFor (wait_test.go).

// uiTimeout bounds a wait for the UI to react to an event. The app answers
// in well under a second; the margin is for a loaded CI machine running
// four tabs at once on two cores, and a failing wait should not hold the
// suite up for a minute.
const uiTimeout = 30 * time.Second

// jsLit quotes s as a JavaScript string literal (valid as a CSS string too:
// no \u escapes for <, > or &).
func jsLit(s string) string {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// evalVoid is an action that evaluates a JavaScript expression for its
// effect.
func evalVoid(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](expr)
}

// evalJS evaluates a JavaScript expression and decodes its value.
func evalJS[T any](b *browser, expr string) T {
	b.t.Helper()
	return run(b, chromedp.Evaluate[T](expr))
}

// jsExists is the JavaScript test that sel matches an element.
func jsExists(sel string) string {
	return fmt.Sprintf(`document.querySelector(%s) !== null`, jsLit(sel))
}

// setField sets a field's value and fires the change event that the UI
// applies it on, as a browser does when the user leaves the field. It works
// for text inputs and selects alike.
func setField(b *browser, sel, value string) {
	b.t.Helper()
	ok := evalJS[bool](b, fmt.Sprintf(`(() => {
		const el = document.querySelector(%s);
		if (!el) return false;
		el.value = %s;
		el.dispatchEvent(new Event('change', {bubbles: true}));
		return true;
	})()`, jsLit(sel), jsLit(value)))
	if !ok {
		b.t.Fatalf("setField: no element matches %s", sel)
	}
}

// setValueOnly sets a field's value as typing does: an input event, but no
// change event, since the user has not left the field yet.
func setValueOnly(b *browser, sel, value string) {
	b.t.Helper()
	ok := evalJS[bool](b, fmt.Sprintf(`(() => {
		const el = document.querySelector(%s);
		if (!el) return false;
		el.value = %s;
		el.dispatchEvent(new Event('input', {bubbles: true}));
		return true;
	})()`, jsLit(sel), jsLit(value)))
	if !ok {
		b.t.Fatalf("setValueOnly: no element matches %s", sel)
	}
}

// clickSel sends a real mouse click to the first element matching sel.
func clickSel(b *browser, sel string) {
	b.t.Helper()
	settleInView(b, fmt.Sprintf(`document.querySelector(%s)`, jsLit(sel)))
	b.Do(chromedp.Click(chromedp.CSS(sel)))
}

// clickPath clicks the element a JavaScript expression finds, as clickSel.
func clickPath(b *browser, jsPath string) {
	b.t.Helper()
	settleInView(b, jsPath)
	b.Do(chromedp.Click(chromedp.JSPath(jsPath)))
}

// settleInView scrolls the element el finds (if any yet) into view and waits
// until it stands still where a click at its centre reaches it: the log's
// rows skip layout while off screen (content-visibility) and grow when
// shown, and the tour scrolls its panel into view smoothly, so an element
// can still be moving two frames after the scroll. As Playwright's
// "stable" check: the same box in three frames in a row, and the hit test
// at its centre finds it (or something inside it). Bounded: after a second
// of frames the click goes ahead and the test's own wait reports the miss.
func settleInView(b *browser, el string) {
	b.t.Helper()
	settled := run(b, chromedp.Evaluate[bool](`(async () => {
		const e = `+el+`;
		if (!e) return true;
		e.scrollIntoView({block: "center"});
		const frame = () => new Promise(r => requestAnimationFrame(r));
		let last = "", same = 0;
		for (let i = 0; i < 60 && same < 3; i++) {
			await frame();
			const r = e.getBoundingClientRect();
			const box = [r.left, r.top, r.width, r.height].join();
			const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			same = box === last && hit && e.contains(hit) ? same + 1 : 0;
			last = box;
		}
		return same >= 3;
	})()`, chromedp.EvalAwaitPromise))
	if !settled {
		b.t.Logf("settleInView: %s did not stand still under the pointer", el)
	}
}

// textOf is the trimmed textContent of the first element matching sel, or
// "" when there is none.
func textOf(b *browser, sel string) string {
	b.t.Helper()
	return evalJS[string](b, fmt.Sprintf(`((document.querySelector(%s) || {}).textContent || "").trim()`, jsLit(sel)))
}

// valueOf is the value property of the first element matching sel.
func valueOf(b *browser, sel string) string {
	b.t.Helper()
	return evalJS[string](b, fmt.Sprintf(`(document.querySelector(%s) || {}).value ?? ""`, jsLit(sel)))
}

// countAll is how many elements match sel.
func countAll(b *browser, sel string) int {
	b.t.Helper()
	return evalJS[int](b, fmt.Sprintf(`document.querySelectorAll(%s).length`, jsLit(sel)))
}

// gridCell is one #grid cell's hooks.
type gridCell struct {
	Page  string `json:"page"`
	Owner string `json:"owner"`
	State string `json:"state"`
}

func (c gridCell) String() string { return c.Page + ":" + c.State + ":" + c.Owner }

// cellStateJS is the state of the grid's cell c, from its class state-…:
// the one attribute a step changes on a cell (web/dom/grid.go).
const cellStateJS = `((c.className.match(/\bstate-(\w+)/) || [])[1] ?? "")`

// gridCells lists the grid's cells in order, optionally narrowed by a CSS
// selector relative to #grid (e.g. ".state-leaked").
func gridCells(b *browser, filter string) []gridCell {
	b.t.Helper()
	return evalJS[[]gridCell](b, fmt.Sprintf(`[...document.querySelectorAll("#grid .cell"+%s)].map(c => (
		{page: c.dataset.page ?? "", owner: c.dataset.owner ?? "", state: `+cellStateJS+`}))`, jsLit(filter)))
}

// logRow is one row of the event log.
type logRow struct {
	Step  int    `json:"step"`
	Stage string `json:"stage"`
	Text  string `json:"text"`
}

// logRows lists #log's rows.
func logRows(b *browser) []logRow {
	b.t.Helper()
	return evalJS[[]logRow](b, `[...document.querySelectorAll("#log li[data-step][data-stage]")].map(li => (
		{step: +li.dataset.step, stage: li.dataset.stage, text: li.textContent.replace(/\s+/g, " ").trim()}))`)
}

// uiState is what the simulation shows: compared before and after an input
// that must change nothing.
type uiState struct {
	Status  string   `json:"status"`
	Verdict string   `json:"verdict"`
	Grid    []string `json:"grid"`
	LogRows int      `json:"logRows"`
}

func readState(b *browser) uiState {
	b.t.Helper()
	return evalJS[uiState](b, `({
		status: (document.querySelector("#status") || {}).textContent ?? "",
		verdict: (document.querySelector("#verdict") || {}).textContent ?? "",
		grid: [...document.querySelectorAll("#grid .cell")].map(c => c.dataset.page + ":" + `+cellStateJS+` + ":" + c.dataset.owner),
		logRows: document.querySelectorAll("#log li[data-step][data-stage]").length,
	})`)
}

// waitLogRows waits until #log has exactly n rows.
func waitLogRows(b *browser, n int) {
	b.t.Helper()
	waitFor(b, fmt.Sprintf("%d log rows", n),
		fmt.Sprintf(`document.querySelectorAll("#log li[data-step][data-stage]").length === %d`, n))
}

// waitLogGrows waits until #log has more than n rows and returns the count.
func waitLogGrows(b *browser, n int) int {
	b.t.Helper()
	waitFor(b, fmt.Sprintf("more than %d log rows", n),
		fmt.Sprintf(`document.querySelectorAll("#log li[data-step][data-stage]").length > %d`, n))
	return countAll(b, "#log li[data-step][data-stage]")
}

// openPlayground serves the site, starts a browser and opens the page.
func openPlayground(t *testing.T) *browser {
	t.Helper()
	url := serveSite(t)
	b := newBrowser(t)
	b.Open(url)
	return b
}

// choosePreset selects a scenario and waits until the app has loaded it:
// each scenario has its own description under the picker.
func choosePreset(b *browser, slug string) {
	b.t.Helper()
	desc := textOf(b, "#preset-desc")
	same := valueOf(b, "#preset") == slug
	setField(b, "#preset", slug)
	if same {
		settle(b)
		return
	}
	waitFor(b, "the description of preset "+slug,
		fmt.Sprintf(`document.querySelector("#preset-desc").textContent.trim() !== %s`, jsLit(desc)))
}

// resetRun clicks Reset and waits for the empty log.
func resetRun(b *browser) {
	b.t.Helper()
	clickSel(b, "#reset")
	waitLogRows(b, 0)
}

// sendRequest fills the request form the way a user does and clicks Send,
// then waits until the log has grown. An empty secret leaves the field as
// it is.
func sendRequest(b *browser, tenant string, tokens string, secret string) {
	b.t.Helper()
	before := countAll(b, "#log li[data-step][data-stage]")
	setField(b, "#tenant", tenant)
	waitFor(b, "tenant "+tenant, fmt.Sprintf(`document.querySelector("#tenant").value === %s`, jsLit(tenant)))
	setField(b, "#prompt-tokens", tokens)
	if secret != "" {
		setField(b, "#secret", secret)
	}
	clickSel(b, "#send")
	waitLogGrows(b, before)
}

// withT points b's failures at a subtest for the subtest's duration, so
// that one browser serves a table of subtests (a subtest must not FailNow
// its parent). Subtests using it must not run in parallel.
func withT(b *browser, t *testing.T) {
	parent := b.t
	b.t = t
	t.Cleanup(func() { b.t = parent })
}

// settle returns once the app has handled every event sent before it, its
// render is on the page and the late panels have followed (waitLate): for
// a check that an event changed nothing, or before one that needs the page
// at rest. It asks the test hook kvleakTest.settle (web/hooks_testhooks.go),
// so it needs the test-hooks site (openHooked). It sends the page no event
// of its own.
func settle(b *browser) {
	b.t.Helper()
	if !evalJS[bool](b, `typeof window.kvleakTest === "object"`) {
		b.t.Fatal("settle needs the test hooks: open the page with openHooked")
	}
	waitFor(b, "the app to handle the events before it and render", `new Promise(done => kvleakTest.settle(() => done(true)))`)
	waitLate(b)
}

// waitLate waits until the late panels show the last change: they follow
// it once its frame is painted (web/lateviews.go).
func waitLate(b *browser) {
	b.t.Helper()
	waitFor(b, "the lower panels to follow", `document.querySelector("#playground[data-late]") === null`)
}

// hoverOn moves the mouse over the centre of the first element matching sel,
// after scrolling it into view: the page gets mouseover/mouseenter as from
// a real pointer.
func hoverOn(b *browser, sel string) {
	b.t.Helper()
	pt := evalJS[[]float64](b, fmt.Sprintf(`(() => {
		const el = document.querySelector(%s);
		if (!el) return [];
		el.scrollIntoView({block: "center"});
		const r = el.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`, jsLit(sel)))
	if len(pt) != 2 {
		b.t.Fatalf("hover: no element matches %s", sel)
	}
	b.Do(chromedp.MouseEvent(chromedp.MouseMoved, pt[0], pt[1]))
}

// pressKeys types keys into whatever has the focus (see kb for names such
// as kb.Tab and kb.Enter).
func pressKeys(b *browser, keys string) {
	b.t.Helper()
	b.Do(chromedp.KeyEvent(keys))
}

// activeID is the id of the focused element.
func activeID(b *browser) string {
	b.t.Helper()
	return evalJS[string](b, `(document.activeElement && document.activeElement.id) || ""`)
}

// dialogWatch fails the test if the page opens any JavaScript dialog
// (alert, confirm, prompt) while it runs; each one is dismissed so that the
// page does not hang.
type dialogWatch struct {
	mu   sync.Mutex
	seen []string
	stop context.CancelFunc
	done chan struct{}
}

func watchDialogs(b *browser) *dialogWatch {
	b.t.Helper()
	ctx, cancel := context.WithCancel(b.ctx)
	w := &dialogWatch{stop: cancel, done: make(chan struct{})}
	events := chromedp.Events(ctx, page.JavascriptDialogOpening) // subscribed now
	go func() {
		defer close(w.done)
		for ev, err := range events {
			if err != nil {
				return
			}
			w.mu.Lock()
			w.seen = append(w.seen, fmt.Sprintf("%s dialog: %q", ev.Type, ev.Message))
			w.mu.Unlock()
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	b.t.Cleanup(func() { cancel(); <-w.done })
	return w
}

// Seen lists the dialogs opened so far.
func (w *dialogWatch) Seen() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.seen...)
}

// WaitOne waits for a dialog to open, e.g. one the test opened on purpose
// to prove that the watch works.
func (w *dialogWatch) WaitOne(t *testing.T) {
	t.Helper()
	waitUntil(t, "a JavaScript dialog to be reported", actionTimeout, func() (bool, string) {
		return len(w.Seen()) > 0, "none was: the dialog watch does not work"
	})
}

// joinCells renders cells for a failure message.
func joinCells(cs []gridCell) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}
