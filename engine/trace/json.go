package trace

import (
	"strconv"
	"strings"

	"kvleak/internal/jsonlite"
)

// event is one trace event. Which fields a phase writes follows the format:
// dur for X, id for flows, bp for a flow's finish, s for an instant.
type event struct {
	name, cat string
	ph        byte // 'M', 'X', 'i', 's', 'f', 'C'
	ts, dur   int64
	pid       pid
	tid       int
	id        int
	args      []byte // a JSON object, or nil
}

// args is an event's args, written as JSON as they are added: the page
// links this into the wasm, where a value per arg would cost code at every
// call site for nothing.
type args struct{ b []byte }

func newArgs() *args { return &args{b: make([]byte, 0, 128)} }

func (a *args) key(k string) {
	if len(a.b) == 0 {
		a.b = append(a.b, '{')
	} else {
		a.b = append(a.b, ',')
	}
	a.b = jsonlite.AppendString(a.b, k)
	a.b = append(a.b, ':')
}

func (a *args) str(k, v string) *args {
	a.key(k)
	a.b = jsonlite.AppendString(a.b, v)
	return a
}

func (a *args) num(k string, v int) *args {
	a.key(k)
	a.b = strconv.AppendInt(a.b, int64(v), 10)
	return a
}

func (a *args) boolean(k string, v bool) *args {
	a.key(k)
	a.b = strconv.AppendBool(a.b, v)
	return a
}

// json is the args as an object; adding more afterwards writes a new one.
func (a *args) json() []byte {
	if len(a.b) == 0 {
		return nil
	}
	out := append(a.b, '}')
	a.b = out[: len(out)-1 : len(out)-1]
	return out
}

// onThread reports whether the event belongs to a thread and so has a tid:
// a counter and a process's metadata belong to the process.
func (ev *event) onThread() bool {
	return ev.ph != 'C' && !(ev.ph == 'M' && strings.HasPrefix(ev.name, "process_"))
}

func (ev *event) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = jsonlite.AppendString(b, ev.name)
	if ev.cat != "" {
		b = append(b, `,"cat":`...)
		b = jsonlite.AppendString(b, ev.cat)
	}
	b = append(b, `,"ph":"`...)
	b = append(b, ev.ph, '"')
	b = append(b, `,"ts":`...)
	b = strconv.AppendInt(b, ev.ts, 10)
	if ev.ph == 'X' {
		b = append(b, `,"dur":`...)
		b = strconv.AppendInt(b, ev.dur, 10)
	}
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, int64(ev.pid), 10)
	if ev.onThread() {
		b = append(b, `,"tid":`...)
		b = strconv.AppendInt(b, int64(ev.tid), 10)
	}
	switch ev.ph {
	case 's', 'f':
		b = append(b, `,"id":`...)
		b = strconv.AppendInt(b, int64(ev.id), 10)
		if ev.ph == 'f' {
			b = append(b, `,"bp":"e"`...) // bind to the enclosing slice, as Perfetto needs
		}
	case 'i':
		b = append(b, `,"s":"t"`...)
	}
	if ev.args != nil {
		b = append(b, `,"args":`...)
		b = append(b, ev.args...)
	}
	return append(b, '}')
}

// encode writes the trace in the format's object form, one event a line.
func (b *builder) encode(name string) []byte {
	out := make([]byte, 0, 256*len(b.events)+1024)
	out = append(out, `{"displayTimeUnit":"ms","otherData":`...)
	out = append(out, b.otherData(name)...)
	out = append(out, `,"traceEvents":[`...)
	for i := range b.events {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '\n')
		out = b.events[i].appendJSON(out)
	}
	return append(out, "\n]}\n"...)
}
