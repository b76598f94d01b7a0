package e2e

import (
	"context"
	"regexp"
	"sync"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// goDeath matches what Go's wasm runtime prints when it dies. Go writes a
// panic to stderr, which wasm_exec.js sends to console.log, not
// console.error: the harness alone would not see it.
var goDeath = regexp.MustCompile(`panic:|fatal error:|Go program has already exited|runtime error:|goroutine \d+ \[`)

// panicWatch records console messages of any level that say Go died.
type panicWatch struct {
	mu   sync.Mutex
	seen []string
	done chan struct{}
}

func watchPanics(b *browser) *panicWatch {
	b.t.Helper()
	ctx, cancel := context.WithCancel(b.ctx)
	w := &panicWatch{done: make(chan struct{})}
	events := chromedp.Events(ctx, runtime.ConsoleAPICalled) // subscribed now
	go func() {
		defer close(w.done)
		for ev, err := range events {
			if err != nil {
				return
			}
			if text := argsText(ev.Args); goDeath.MatchString(text) {
				w.mu.Lock()
				w.seen = append(w.seen, "console."+string(ev.Type)+": "+text)
				w.mu.Unlock()
			}
		}
	}()
	b.t.Cleanup(func() { cancel(); <-w.done })
	return w
}

// Seen lists the messages recorded so far.
func (w *panicWatch) Seen() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.seen...)
}
