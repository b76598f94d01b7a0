package e2e

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// soakKind is one kind of action; weight is its share of the walk. do gets
// the plan's two numbers and says in the trace what it did.
type soakKind struct {
	name      string
	weight    int
	navigates bool // loads a page: probe after it
	do        func(w *walker, a, b uint64) (string, error)
}

// The explicit controls; the dom-* kinds add whatever else the page has.
var (
	soakNumberFields = []string{"#ctx", "#pool", "#page-size", "#decode-pool", "#prompt-tokens"}
	soakTextFields   = []string{"#secret", "#tenant-name"}
	soakSelects      = []string{"#preset", "#mode", "#cancel", "#tenant", "#end-early"}
	soakButtons      = []string{"#send", "#send", "#reset", "#add-tenant", "#rename", "#step-back", "#play",
		"#step-next", "#table-toggle", "#compare-toggle", "#zoom-out", "#copy-link", "#embed", "#export",
		"#log-latest", "#banner button", "#scrub", "#replay-run", "#replay-cancel"}
	soakGridKeys = []string{kb.ArrowLeft, kb.ArrowRight, kb.ArrowUp, kb.ArrowDown, kb.Home, kb.End, kb.Enter, " "}
)

// Selectors of the DOM-derived kinds: every enabled control, minus links
// (they leave the page), labels and the file input (they open a file
// chooser).
const (
	soakClickables = `button, input[type=checkbox], input[type=radio], summary, [role=button], [data-settle]`
	soakFields     = `input:not([type=file]):not([type=checkbox]):not([type=radio]):not([readonly]), textarea:not([readonly]), select`
	soakCells      = `#grid [data-page], #pool-table [data-page]`
	soakLogRows    = `#log button[data-step], #log [data-step] button`
)

func pickOf[T any](list []T, n uint64) T { return list[n%uint64(len(list))] }

var soakKinds = []soakKind{
	{name: "number", weight: 10, do: func(w *walker, a, b uint64) (string, error) {
		return w.setValue(pickOf(soakNumberFields, a), 0, pickOf(soakNumbers, b), 0, b%5 != 0)
	}},
	{name: "text", weight: 5, do: func(w *walker, a, b uint64) (string, error) {
		return w.setValue(pickOf(soakTextFields, a), 0, pickOf(soakTexts, b), 0, b%5 != 0)
	}},
	{name: "select", weight: 10, do: func(w *walker, a, b uint64) (string, error) {
		return w.setValue(pickOf(soakSelects, a), 0, "", b, true)
	}},
	{name: "button", weight: 22, do: func(w *walker, a, b uint64) (string, error) {
		return w.click(pickOf(soakButtons, a), 0, b%3 == 0)
	}},
	{name: "type", weight: 3, do: func(w *walker, a, b uint64) (string, error) {
		return w.typeInto(a, b)
	}},
	{name: "cell", weight: 5, do: func(w *walker, a, b uint64) (string, error) {
		return w.click(soakCells, a, b%2 == 0)
	}},
	{name: "cell-key", weight: 4, do: func(w *walker, a, b uint64) (string, error) {
		desc, err := w.focus(soakCells, a)
		if err != nil || desc == "(none)" {
			return desc, err
		}
		k := pickOf(soakGridKeys, b)
		return desc + " key " + keyName(k), w.do(chromedp.KeyEvent(k))
	}},
	{name: "hover", weight: 2, do: func(w *walker, a, b uint64) (string, error) {
		return w.hover(pickOf([]string{soakCells, soakLogRows, soakClickables}, b), a)
	}},
	{name: "log-row", weight: 4, do: func(w *walker, a, b uint64) (string, error) {
		return w.click(soakLogRows, a, b%2 == 0)
	}},
	{name: "settle", weight: 4, do: func(w *walker, a, b uint64) (string, error) {
		return w.click("[data-settle]", a, b%2 == 0)
	}},
	{name: "key", weight: 10, do: func(w *walker, a, b uint64) (string, error) {
		desc := "(focus kept)"
		if b%4 != 0 { // most shortcuts are pressed outside a field
			var err error
			if desc, err = w.focus("", 0); err != nil {
				return desc, err
			}
		}
		k := pickOf(soakKeys, a)
		return keyName(k) + " " + desc, w.do(chromedp.KeyEvent(k))
	}},
	{name: "import", weight: 3, do: func(w *walker, a, b uint64) (string, error) {
		return w.uploadOf("import", w.files, a)
	}},
	{name: "replay-log", weight: 3, do: func(w *walker, a, b uint64) (string, error) {
		desc, err := w.setValue("#replay-text", 0, pickOf(soakLogs, a), 0, b%5 != 0)
		if err != nil || desc == "(none)" || b%3 == 0 {
			return desc, err
		}
		run, err := w.click("#replay-run", 0, false)
		return desc + ", " + run, err
	}},
	{name: "replay-file", weight: 1, do: func(w *walker, a, b uint64) (string, error) {
		return w.uploadOf("replay-file", w.logFiles, a)
	}},
	{name: "dom-click", weight: 8, do: func(w *walker, a, b uint64) (string, error) {
		return w.click(soakClickables, a, b%3 == 0)
	}},
	{name: "dom-set", weight: 5, do: func(w *walker, a, b uint64) (string, error) {
		all := append(append([]string(nil), soakNumbers...), soakTexts...)
		return w.setValue(soakFields, a, pickOf(all, b), b, b%4 != 0)
	}},
	{name: "open", weight: 2, navigates: true, do: func(w *walker, a, b uint64) (string, error) {
		q := pickOf(soakQueries, a)
		return clipTrace(q), w.navigate(w.base + q)
	}},
	{name: "view-flags", weight: 1, navigates: true, do: func(w *walker, a, b uint64) (string, error) {
		search, err := soakJS[string](w, afterAddressBar(`location.search`))
		if err != nil {
			return "", err
		}
		flags := pickOf([]string{"embed=1", "embed=1&ro=1", "compare=1", "embed=1&compare=1", "ro=1"}, a)
		sep := "&"
		if search == "" {
			sep = "?"
		}
		return "+" + flags, w.navigate(w.base + search + sep + flags)
	}},
	{name: "back", weight: 1, navigates: true, do: func(w *walker, a, b uint64) (string, error) {
		return w.history(-1)
	}},
	{name: "forward", weight: 1, navigates: true, do: func(w *walker, a, b uint64) (string, error) {
		return w.history(1)
	}},
	{name: "reload", weight: 1, navigates: true, do: func(w *walker, a, b uint64) (string, error) {
		return "", w.reload()
	}},
}

// uploadOf puts the n-th of files into the file input of that id.
func (w *walker) uploadOf(id string, files []string, n uint64) (string, error) {
	f := pickOf(files, n)
	ok, err := w.upload(id, f)
	if !ok {
		return "(none)", err
	}
	return "#" + id + " " + filepath.Base(f), err
}

// typeInto types a short value into a field with real keys, then leaves it
// with Tab or Enter, or not at all.
func (w *walker) typeInto(a, b uint64) (string, error) {
	desc, err := w.focus(soakFields, a)
	if err != nil || desc == "(none)" {
		return desc, err
	}
	var short []string
	for _, v := range append(append([]string(nil), soakNumbers...), soakTexts...) {
		if len(v) <= 20 && !strings.ContainsAny(v, "\x00\x01\x7f\t\n") {
			short = append(short, v)
		}
	}
	v := pickOf(short, b)
	leave := pickOf([]string{kb.Tab, kb.Enter, ""}, b/7)
	desc = fmt.Sprintf("%s types %q then %s", desc, v, keyName(leave))
	return desc, w.do(chromedp.KeyEvent(kb.End), chromedp.KeyEvent(strings.Repeat(kb.Backspace, 12)+v+leave))
}

func clipTrace(s string) string {
	if len(s) > 90 {
		return fmt.Sprintf("%s…(%d bytes)", s[:90], len(s))
	}
	return s
}
