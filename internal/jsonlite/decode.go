package jsonlite

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Unmarshal reads the JSON in data into the value v points to, as
// json.Unmarshal does for the types it reads: fields matched by name (exactly,
// else ignoring case), unknown keys checked and skipped, null leaving a value
// alone (a pointer or slice becomes nil), and values decoded into what is
// already there. It reads no floats or maps: nothing the playground reads back
// has them, and strconv.ParseFloat would link its code into the wasm. Text
// after the value is an error. On error, v may be partly written.
func Unmarshal(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("jsonlite: Unmarshal needs a non-nil pointer, not %T", v)
	}
	d := decoder{data: data}
	if err := d.value(rv.Elem()); err != nil {
		return err
	}
	d.space()
	if d.off < len(d.data) {
		return d.syntax("after the top-level value")
	}
	return nil
}

var errEnd = errors.New("unexpected end of JSON input")

type decoder struct {
	data  []byte
	off   int
	depth int
	path  []string // the keys to the value being read, for messages
}

func (d *decoder) space() {
	for d.off < len(d.data) {
		switch d.data[d.off] {
		case ' ', '\t', '\n', '\r':
			d.off++
		default:
			return
		}
	}
}

// syntax describes the byte at d.off, found where something else was due.
func (d *decoder) syntax(looking string) error {
	if d.off >= len(d.data) {
		return errEnd
	}
	return fmt.Errorf("invalid character %s at byte %d, %s", quoteChar(d.data[d.off]), d.off+1, looking)
}

// TypeError is a JSON value that cannot go into the Go value Unmarshal was
// reading it into. A caller that reads what people paste branches on it to
// name the field in its own words.
type TypeError struct {
	Offset int          // of the value, counting from 1
	Path   []string     // the object keys leading to the value
	Value  string       // what the JSON holds: "a string", "the number 1.5"
	Type   reflect.Type // what it was to be read into
}

func (e *TypeError) Error() string {
	at := ""
	if len(e.Path) > 0 {
		at = " (" + strings.Join(e.Path, ".") + ")"
	}
	return fmt.Sprintf("at byte %d%s: %s cannot be read into a Go %s", e.Offset, at, e.Value, e.Type)
}

// mismatch says that the JSON value at d.off cannot go into a Go value of
// type t.
func (d *decoder) mismatch(what string, t reflect.Type) error {
	return &TypeError{Offset: d.off + 1, Path: append([]string(nil), d.path...), Value: what, Type: t}
}

// value reads one value into v, or checks and skips it when v is the zero
// Value.
func (d *decoder) value(v reflect.Value) error {
	d.space()
	if d.off >= len(d.data) {
		return errEnd
	}
	c := d.data[d.off]
	if c == 'n' {
		if err := d.literal("null"); err != nil {
			return err
		}
		if v.IsValid() {
			switch v.Kind() {
			case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
				v.Set(reflect.Zero(v.Type()))
			}
		}
		return nil
	}
	if v.IsValid() {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		if err := checkDecodable(v.Type()); err != nil {
			return err
		}
	}
	switch {
	case c == '{':
		return d.object(v)
	case c == '[':
		return d.array(v)
	case c == '"':
		start := d.off
		s, err := d.str()
		if err != nil || !v.IsValid() {
			return err
		}
		if v.Kind() != reflect.String {
			d.off = start
			return d.mismatch("a string", v.Type())
		}
		v.SetString(s)
	case c == 't' || c == 'f':
		start := d.off
		word := "true"
		if c == 'f' {
			word = "false"
		}
		if err := d.literal(word); err != nil || !v.IsValid() {
			return err
		}
		if v.Kind() != reflect.Bool {
			d.off = start
			return d.mismatch("a boolean", v.Type())
		}
		v.SetBool(c == 't')
	case c == '-' || '0' <= c && c <= '9':
		start := d.off
		num, err := d.number()
		if err != nil || !v.IsValid() {
			return err
		}
		if !storeNumber(v, num) {
			d.off = start
			return d.mismatch("the number "+num, v.Type())
		}
	default:
		return d.syntax("looking for the start of a value")
	}
	return nil
}

// checkDecodable refuses what Unmarshal does not read.
func checkDecodable(t reflect.Type) error {
	if err := infoOf(t).ownErr; err != nil {
		return err
	}
	switch t.Kind() {
	case reflect.Interface, reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer,
		reflect.Map, reflect.Float32, reflect.Float64:
		return unsupported(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return unsupported(t) // encoding/json reads base64
		}
	}
	return nil
}

func storeNumber(v reflect.Value, num string) bool {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, err := strconv.ParseUint(num, 10, 64)
		if err != nil || v.OverflowUint(n) {
			return false
		}
		v.SetUint(n)
	default:
		return false
	}
	return true
}

func (d *decoder) literal(word string) error {
	for i := range len(word) {
		if d.off >= len(d.data) {
			return errEnd
		}
		if d.data[d.off] != word[i] {
			return d.syntax("in the literal " + word)
		}
		d.off++
	}
	return nil
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (d *decoder) number() (string, error) {
	start := d.off
	digits := func() error {
		if d.off >= len(d.data) {
			return errEnd
		}
		if c := d.data[d.off]; c < '0' || c > '9' {
			return d.syntax("in a number")
		}
		for d.off < len(d.data) && '0' <= d.data[d.off] && d.data[d.off] <= '9' {
			d.off++
		}
		return nil
	}
	if d.data[d.off] == '-' {
		d.off++
	}
	if d.off < len(d.data) && d.data[d.off] == '0' {
		d.off++
	} else if err := digits(); err != nil {
		return "", err
	}
	if d.off < len(d.data) && d.data[d.off] == '.' {
		d.off++
		if err := digits(); err != nil {
			return "", err
		}
	}
	if d.off < len(d.data) && (d.data[d.off] == 'e' || d.data[d.off] == 'E') {
		d.off++
		if d.off < len(d.data) && (d.data[d.off] == '+' || d.data[d.off] == '-') {
			d.off++
		}
		if err := digits(); err != nil {
			return "", err
		}
	}
	return string(d.data[start:d.off]), nil
}

// nest counts one more level of objects and arrays.
func (d *decoder) nest() error {
	if d.depth++; d.depth > MaxDepth {
		return fmt.Errorf("at byte %d: the JSON nests more than %d levels deep", d.off+1, MaxDepth)
	}
	return nil
}

func (d *decoder) object(v reflect.Value) error {
	var fs []field
	if v.IsValid() {
		if v.Kind() != reflect.Struct {
			return d.mismatch("an object", v.Type())
		}
		ti := infoOf(v.Type())
		if ti.fieldsErr != nil {
			return ti.fieldsErr
		}
		fs = ti.fields
	}
	if err := d.nest(); err != nil {
		return err
	}
	d.off++ // {
	d.space()
	if d.off < len(d.data) && d.data[d.off] == '}' {
		d.off++
		d.depth--
		return nil
	}
	for {
		d.space()
		if d.off >= len(d.data) || d.data[d.off] != '"' {
			return d.syntax("looking for the start of an object key")
		}
		key, err := d.str()
		if err != nil {
			return err
		}
		d.space()
		if d.off >= len(d.data) || d.data[d.off] != ':' {
			return d.syntax("after an object key")
		}
		d.off++
		d.path = append(d.path, key)
		var fv reflect.Value // zero: skip the value
		if f, ok := lookup(fs, key); ok && v.IsValid() {
			fv = v.Field(f.index)
		}
		if err := d.value(fv); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
		d.space()
		if d.off >= len(d.data) {
			return errEnd
		}
		switch d.data[d.off] {
		case ',':
			d.off++
		case '}':
			d.off++
			d.depth--
			return nil
		default:
			return d.syntax("after an object's value")
		}
	}
}

// lookup finds the field named key, exactly or else ignoring case.
func lookup(fs []field, key string) (field, bool) {
	for _, f := range fs {
		if f.name == key {
			return f, true
		}
	}
	for _, f := range fs {
		if strings.EqualFold(f.name, key) {
			return f, true
		}
	}
	return field{}, false
}

func (d *decoder) array(v reflect.Value) error {
	if v.IsValid() && v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return d.mismatch("an array", v.Type())
	}
	if err := d.nest(); err != nil {
		return err
	}
	d.off++ // [
	d.space()
	i := 0
	if d.off < len(d.data) && d.data[d.off] == ']' {
		d.off++
	} else {
		for {
			// Into what is there, growing a slice as encoding/json does; an
			// array's surplus elements are read and dropped.
			var ev reflect.Value
			if v.IsValid() {
				if v.Kind() == reflect.Slice {
					if i >= v.Cap() {
						v.Grow(1)
					}
					if i >= v.Len() {
						v.SetLen(i + 1)
					}
				}
				if i < v.Len() {
					ev = v.Index(i)
				}
			}
			if err := d.value(ev); err != nil {
				return err
			}
			i++
			d.space()
			if d.off >= len(d.data) {
				return errEnd
			}
			if d.data[d.off] == ']' {
				d.off++
				break
			}
			if d.data[d.off] != ',' {
				return d.syntax("after an array element")
			}
			d.off++
		}
	}
	d.depth--
	if !v.IsValid() {
		return nil
	}
	if i < v.Len() {
		if v.Kind() == reflect.Array {
			for ; i < v.Len(); i++ {
				v.Index(i).Set(reflect.Zero(v.Type().Elem()))
			}
		} else {
			v.SetLen(i)
		}
	}
	if i == 0 && v.Kind() == reflect.Slice {
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	}
	return nil
}

// str reads a string at d.off, as encoding/json unquotes it: invalid UTF-8
// and unpaired surrogates become U+FFFD.
func (d *decoder) str() (string, error) {
	d.off++ // "
	start := d.off
	for d.off < len(d.data) {
		c := d.data[d.off]
		if c == '"' {
			s := string(d.data[start:d.off])
			d.off++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break // the slow path
		}
		d.off++
	}
	b := []byte(string(d.data[start:d.off]))
	for d.off < len(d.data) {
		c := d.data[d.off]
		switch {
		case c == '"':
			d.off++
			return string(b), nil
		case c < 0x20:
			return "", d.syntax("in a string")
		case c == '\\':
			r, err := d.escape()
			if err != nil {
				return "", err
			}
			b = utf8.AppendRune(b, r)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d.data[d.off:])
			b = utf8.AppendRune(b, r) // RuneError for a bad byte
			d.off += size
		default:
			b = append(b, c)
			d.off++
		}
	}
	return "", errEnd
}

// escape reads one escape sequence, a surrogate pair taken as one.
func (d *decoder) escape() (rune, error) {
	d.off++ // \
	if d.off >= len(d.data) {
		return 0, errEnd
	}
	c := d.data[d.off]
	d.off++
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r, err := d.hex4()
		if err != nil {
			return 0, err
		}
		if !utf16.IsSurrogate(r) {
			return r, nil
		}
		// A low surrogate must follow at once; if none does, what follows
		// is read on its own.
		if d.off+6 <= len(d.data) && d.data[d.off] == '\\' && d.data[d.off+1] == 'u' {
			save := d.off
			d.off += 2
			if r2, err := d.hex4(); err == nil {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					return pair, nil
				}
			}
			d.off = save
		}
		return utf8.RuneError, nil
	}
	d.off--
	return 0, d.syntax("in a string escape")
}

func (d *decoder) hex4() (rune, error) {
	var r rune
	for range 4 {
		if d.off >= len(d.data) {
			return 0, errEnd
		}
		c := d.data[d.off]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, d.syntax("in a \\u escape")
		}
		r = r<<4 | rune(c)
		d.off++
	}
	return r, nil
}

// quoteChar formats c as encoding/json's messages do.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}
