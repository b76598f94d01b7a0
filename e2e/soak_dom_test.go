package e2e

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The walk's DOM primitives. They find their target by a selector of ids
// and data attributes and pick among the matches by a number of the plan;
// a missing target is a no-op, reported in the trace as "(none)".

// jsPick defines pick(sel, n): the n-th (mod count) enabled element
// matching sel, and name(el): how the trace names it.
const jsPick = `
const pick = (sel, n) => {
	const els = [...document.querySelectorAll(sel)].filter(e => !e.disabled && e.isConnected);
	return els.length ? els[n % els.length] : null;
};
const name = el => {
	let s = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "");
	for (const a of el.attributes) if (a.name.startsWith("data-")) s += "[" + a.name + "=" + a.value + "]";
	if (!el.id && !s.includes("[")) s += " " + JSON.stringify((el.textContent || "").trim().slice(0, 24));
	return s;
};`

// pickN reduces a plan number to an index JavaScript handles exactly.
func pickN(n uint64) uint64 { return n % 1_000_003 }

type soakTarget struct {
	Desc string  `json:"desc"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	Real bool    `json:"real"`
}

// click clicks a picked element: a real mouse click at its centre when real
// and it is laid out, else el.click().
func (w *walker) click(sel string, n uint64, real bool) (string, error) {
	t, err := soakJS[soakTarget](w, fmt.Sprintf(`(() => {%s
		const el = pick(%s, %d);
		if (!el) return {desc: "(none)"};
		el.scrollIntoView({block: "center"});
		const r = el.getBoundingClientRect();
		if (!%t || r.width === 0 || r.height === 0) { el.click(); return {desc: name(el) + " (el.click)"}; }
		return {desc: name(el), x: r.left + r.width / 2, y: r.top + r.height / 2, real: true};
	})()`, jsPick, jsLit(sel), pickN(n), real))
	if err != nil || !t.Real {
		return t.Desc, err
	}
	return t.Desc + " (mouse)", w.do(chromedp.MouseClickXY(t.X, t.Y))
}

// hover moves the mouse over a picked element.
func (w *walker) hover(sel string, n uint64) (string, error) {
	t, err := soakJS[soakTarget](w, fmt.Sprintf(`(() => {%s
		const el = pick(%s, %d);
		if (!el) return {desc: "(none)"};
		el.scrollIntoView({block: "center"});
		const r = el.getBoundingClientRect();
		return {desc: name(el), x: r.left + r.width / 2, y: r.top + r.height / 2, real: r.width > 0};
	})()`, jsPick, jsLit(sel), pickN(n)))
	if err != nil || !t.Real {
		return t.Desc, err
	}
	return t.Desc, w.do(chromedp.MouseEvent(chromedp.MouseMoved, t.X, t.Y))
}

// setValue sets a picked field's value; with fire, it then fires input and
// change as a browser does when the user leaves the field. A select takes
// option n2 (mod options+1; the extra one is a value it does not have).
func (w *walker) setValue(sel string, n uint64, value string, n2 uint64, fire bool) (string, error) {
	return soakJS[string](w, fmt.Sprintf(`(() => {%s
		const el = pick(%s, %d);
		if (!el) return "(none)";
		let v = %s;
		if (el.tagName === "SELECT") {
			const opts = [...el.options].map(o => o.value);
			v = opts[%d %% (opts.length + 1)] ?? "no-such-option";
		}
		el.value = v;
		if (%t) {
			el.dispatchEvent(new Event("input", {bubbles: true}));
			el.dispatchEvent(new Event("change", {bubbles: true}));
		}
		return name(el) + " = " + JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…(" + v.length + ")" : v) + (%t ? "" : " (no change event)");
	})()`, jsPick, jsLit(sel), pickN(n), jsLit(value), pickN(n2), fire, fire))
}

// focus focuses a picked element, or with sel "" blurs the focused one so
// that keys reach the document.
func (w *walker) focus(sel string, n uint64) (string, error) {
	if sel == "" {
		return soakJS[string](w, `(document.activeElement?.blur(), "(blurred)")`)
	}
	return soakJS[string](w, fmt.Sprintf(`(() => {%s
		const el = pick(%s, %d);
		if (!el) return "(none)";
		el.focus();
		return name(el);
	})()`, jsPick, jsLit(sel), pickN(n)))
}

// upload puts a file into the file input of that id by the element's
// JavaScript handle: chromedp's node queries lose the page after a
// back-forward cache restore and wait forever.
func (w *walker) upload(id, path string) (bool, error) {
	ctx, cancel := context.WithTimeout(w.b.ctx, answerTimeout)
	defer cancel()
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: `document.getElementById(` + jsLit(id) + `)`})
	if err != nil || res.Result == nil || res.Result.ObjectID == "" {
		return false, err // no such input (embed mode)
	}
	defer chromedp.Call(ctx, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: res.Result.ObjectID})
	_, err = chromedp.Call(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: []string{path}, ObjectID: res.Result.ObjectID})
	return true, err
}
