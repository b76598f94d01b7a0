package widget

import (
	"fmt"
	"runtime/debug"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Safe wraps a child component's own event handler so that a panic in it
// is contained like the page's: the page learns of it through the
// CrashAction and shows the banner.
func Safe(h app.EventHandler) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		defer ReportPanic(ctx)
		TestPanic("handler")
		h(ctx, e)
	}
}

// SafeKey is safe for a key handler (dom.ListenKeys).
func SafeKey(h func(ctx app.Context, key string)) func(app.Context, string) {
	return func(ctx app.Context, key string) {
		defer ReportPanic(ctx)
		h(ctx, key)
	}
}

// ReportPanic, deferred in a child's code, contains a panic and hands it
// to the page through the CrashAction.
func ReportPanic(ctx app.Context) {
	if r := recover(); r != nil {
		ctx.NewActionWithValue(CrashAction, ChildPanic{fmt.Sprint(r), debug.Stack()})
	}
}

// CrashAction carries a contained panic from a child to the page.
const CrashAction = "kvleak/crash"

// ChildPanic is what a CrashAction carries: the panic and its stack.
type ChildPanic struct {
	Text  string
	Stack []byte
}
