package dom

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// GuardStorage keeps the app alive where the browser refuses web storage,
// as in an iframe on another site when third-party site data is blocked:
// reading window.localStorage then throws, and go-app reads it at start-up,
// which would kill the wasm. It swaps in an in-memory Storage for the page's
// lifetime. Call it before app.RunWhenOnBrowser.
func GuardStorage() {
	if !app.IsClient {
		return
	}
	for _, name := range []string{"localStorage", "sessionStorage"} {
		if !storageBlocked(name) {
			continue
		}
		replaceStorage(name)
	}
}

// replaceStorage defines window[name] as an in-memory store. A browser that
// refuses the redefinition leaves things as they were rather than panicking.
func replaceStorage(name string) {
	defer func() { _ = recover() }()
	desc := map[string]any{"value": newMemStorage().js(), "configurable": true}
	app.Window().Get("Object").Call("defineProperty", app.Window(), name, desc)
}

// storageBlocked reports whether reading window[name] throws. It goes
// through Reflect.get so that the exception reaches Go as a panic, which a
// plain property read would not.
func storageBlocked(name string) (blocked bool) {
	defer func() {
		if recover() != nil {
			blocked = true
		}
	}()
	app.Window().Get("Reflect").Call("get", app.Window(), name)
	return false
}

// memStorage is the Web Storage API over a map, keys in insertion order.
type memStorage struct {
	keys []string
	vals map[string]string
}

func newMemStorage() *memStorage { return &memStorage{vals: map[string]string{}} }

func (m *memStorage) getItem(k string) (string, bool) {
	v, ok := m.vals[k]
	return v, ok
}

func (m *memStorage) setItem(k, v string) {
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
}

func (m *memStorage) removeItem(k string) {
	if _, ok := m.vals[k]; !ok {
		return
	}
	delete(m.vals, k)
	for i, x := range m.keys {
		if x == k {
			m.keys = append(m.keys[:i], m.keys[i+1:]...)
			break
		}
	}
}

func (m *memStorage) clear() { m.keys, m.vals = nil, map[string]string{} }

func (m *memStorage) key(i int) (string, bool) {
	if i < 0 || i >= len(m.keys) {
		return "", false
	}
	return m.keys[i], true
}

// js exposes the store as a JavaScript Storage-like object.
func (m *memStorage) js() app.Value {
	arg := func(args []app.Value, i int) string {
		if i < len(args) {
			return args[i].String()
		}
		return "undefined"
	}
	orNull := func(v string, ok bool) any {
		if !ok {
			return nil
		}
		return v
	}
	obj := app.Window().Get("Object").New()
	obj.Set("getItem", app.FuncOf(func(_ app.Value, a []app.Value) any { return orNull(m.getItem(arg(a, 0))) }))
	obj.Set("setItem", app.FuncOf(func(_ app.Value, a []app.Value) any { m.setItem(arg(a, 0), arg(a, 1)); return nil }))
	obj.Set("removeItem", app.FuncOf(func(_ app.Value, a []app.Value) any { m.removeItem(arg(a, 0)); return nil }))
	obj.Set("clear", app.FuncOf(func(app.Value, []app.Value) any { m.clear(); return nil }))
	obj.Set("key", app.FuncOf(func(_ app.Value, a []app.Value) any {
		i := 0
		if len(a) > 0 {
			i = a[0].Int()
		}
		return orNull(m.key(i))
	}))
	length := app.FuncOf(func(app.Value, []app.Value) any { return len(m.keys) })
	app.Window().Get("Object").Call("defineProperty", obj, "length", map[string]any{"get": length})
	return obj
}
