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
	args      []arg
}

// arg is one of an event's args: a string, an integer or a bool.
type arg struct {
	key  string
	kind byte // 's', 'n', 'b'
	s    string
	n    int64
}

func str(k, v string) arg     { return arg{key: k, kind: 's', s: v} }
func num(k string, v int) arg { return arg{key: k, kind: 'n', n: int64(v)} }
func boolean(k string, v bool) arg {
	a := arg{key: k, kind: 'b'}
	if v {
		a.n = 1
	}
	return a
}

func appendArgs(b []byte, args []arg) []byte {
	b = append(b, '{')
	for i, a := range args {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonlite.AppendString(b, a.key)
		b = append(b, ':')
		switch a.kind {
		case 's':
			b = jsonlite.AppendString(b, a.s)
		case 'n':
			b = strconv.AppendInt(b, a.n, 10)
		default:
			b = strconv.AppendBool(b, a.n != 0)
		}
	}
	return append(b, '}')
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
	if len(ev.args) > 0 {
		b = append(b, `,"args":`...)
		b = appendArgs(b, ev.args)
	}
	return append(b, '}')
}

// encode writes the trace in the format's object form, one event a line.
func (b *builder) encode(name string) []byte {
	out := make([]byte, 0, 256*len(b.events)+1024)
	out = append(out, `{"displayTimeUnit":"ms","otherData":`...)
	out = appendArgs(out, b.otherData(name))
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
