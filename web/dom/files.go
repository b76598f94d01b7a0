package dom

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Download hands data to the browser as a file called name, of the given
// MIME type.
func Download(name, mime string, data []byte) {
	win := app.Window()
	blob := win.Get("Blob").New([]any{string(data)}, map[string]any{"type": mime})
	href := win.Get("URL").Call("createObjectURL", blob)
	a := win.Get("document").Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", name)
	a.Call("click")
	win.Get("URL").Call("revokeObjectURL", href)
}

// ChosenFile is the file chosen in the <input type="file"> an event fired
// on, and its size in bytes; ok is false when none is.
func ChosenFile(ctx app.Context) (file app.Value, size int, ok bool) {
	files := ctx.JSSrc().Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return nil, 0, false
	}
	file = files.Index(0)
	return file, file.Get("size").Int(), true
}

// ClearChosen empties the <input type="file"> an event fired on, so that
// choosing the same file again fires again.
func ClearChosen(ctx app.Context) { ctx.JSSrc().Set("value", "") }

// ReadText reads a file's text and hands it to done, or calls failed, on
// the component's goroutine (ctx.Dispatch).
func ReadText(ctx app.Context, file app.Value, done func(ctx app.Context, text string), failed func(ctx app.Context)) {
	var ok, refused app.Func
	release := func() { ok.Release(); refused.Release() }
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		text := args[0].String()
		ctx.Dispatch(func(ctx app.Context) { done(ctx, text) })
		release()
		return nil
	})
	refused = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(failed)
		release()
		return nil
	})
	file.Call("text").Call("then", ok, refused)
}

// CopyText puts text on the clipboard and calls copied once it is there,
// on the component's goroutine. The browser may refuse (no permission, no
// focus): the promise's refusal is caught, and copied is not called.
func CopyText(ctx app.Context, text string, copied func()) {
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		return
	}
	var ok, refused app.Func
	release := func() { ok.Release(); refused.Release() }
	ok = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(func(app.Context) { copied() })
		release()
		return nil
	})
	refused = app.FuncOf(func(app.Value, []app.Value) any { release(); return nil })
	clip.Call("writeText", text).Call("then", ok, refused)
}
