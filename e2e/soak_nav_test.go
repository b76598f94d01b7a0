package e2e

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Navigations of the walk. chromedp's own wait for a load event never ends
// on a same-document navigation (a change of fragment only, a history entry
// of the same document), so the walk marks the document before it leaves
// and waits for a document without that mark, or for the same document at
// the new URL.

// mark tags the current document with a fresh number and returns it: a new
// document, or one restored from the back-forward cache, has another.
func (w *walker) mark() (int, error) {
	w.navs++
	_, err := soakJS[bool](w, fmt.Sprintf(`(window.__soakNav = %d, true)`, w.navs))
	return w.navs, err
}

// arrived waits until the tab shows a ready app in another document than
// the one marked k, or until within says the marked one navigated in place.
func (w *walker) arrived(k int, within <-chan struct{}, href string) error {
	pred := fmt.Sprintf(`window.__soakNav !== %d && %s`, k, jsExists(readySelector))
	err := poll(readyTimeout, fmt.Sprintf("a ready app after the navigation to %.100s", href), func() (bool, string) {
		select {
		case <-within:
			return true, ""
		default:
		}
		// Errors are expected while the document is swapped.
		ok, err := soakJS[bool](w, pred)
		return err == nil && ok, fmt.Sprintf("last error: %v", err)
	})
	if err != nil {
		return fmt.Errorf("%w: %v", errDead, err)
	}
	return nil
}

// inPlace is closed when the tab navigates in place to url. Only to url:
// the page leaving writes its own address (history.replaceState, after a
// paint) as a same-document navigation too, and taking that for the
// arrival probed a document still loading.
func (w *walker) inPlace(ctx context.Context, url string) <-chan struct{} {
	ch := make(chan struct{})
	events := chromedp.Events(ctx, page.NavigatedWithinDocument) // subscribed now
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			if ev.URL == url {
				close(ch)
				return
			}
		}
	}()
	return ch
}

// closed is a channel that is already closed.
func closed() <-chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

func (w *walker) navigate(url string) error {
	k, err := w.mark()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(w.b.ctx, answerTimeout)
	defer cancel()
	res, err := chromedp.Call(ctx, page.Navigate, page.NavigateParams{URL: url})
	switch {
	case err != nil:
		return err
	case res.ErrorText != "":
		return fmt.Errorf("navigating to %.100s: %s", url, res.ErrorText)
	}
	if res.LoaderID == "" { // same document: done
		return w.arrived(k, closed(), url)
	}
	return w.arrived(k, nil, url)
}

// history moves by delta entries (-1 back, +1 forward). Moving off the app
// (to the tab's first, blank page) or past the end is a no-op.
func (w *walker) history(delta int) (string, error) {
	ctx, cancel := context.WithTimeout(w.b.ctx, answerTimeout)
	defer cancel()
	h, err := chromedp.Call(ctx, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return "", err
	}
	i := int(h.CurrentIndex) + delta
	if i < 0 || i >= len(h.Entries) || !strings.HasPrefix(h.Entries[i].URL, w.base) {
		return "(no history entry)", nil
	}
	to := h.Entries[i].URL
	k, err := w.mark()
	if err != nil {
		return "", err
	}
	within := w.inPlace(ctx, to)
	if _, err := chromedp.Call(ctx, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[i].ID}); err != nil {
		return "", err
	}
	return clipTrace(strings.TrimPrefix(to, w.base)), w.arrived(k, within, to)
}

func (w *walker) reload() error {
	k, err := w.mark()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(w.b.ctx, answerTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, page.Reload, page.ReloadParams{}); err != nil {
		return err
	}
	return w.arrived(k, nil, "(reload)")
}
