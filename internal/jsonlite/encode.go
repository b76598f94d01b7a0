// Package jsonlite reads and writes JSON for the playground's own types: the
// run file (engine/export.go) and the run kept in a tab (web/model/tabrun.go).
//
// It exists to keep encoding/json out of the wasm (with go-app's uses left out
// too, patches/goapp): encoding/json and the reflect code only it needs
// would otherwise ship in every download. Marshal covers what those types use:
// structs with json tags (a name, omitempty, "-"), bools, integers, floats,
// strings, slices, arrays, pointers, interfaces and maps with string keys,
// each kind named or not. Unmarshal reads the same but for floats, maps and
// interfaces, which nothing read back holds. Anything else, and any type with
// its own JSON or text methods, is an error rather than a guess. Within that
// subset its output is encoding/json's byte for byte and it reads what
// encoding/json reads; the tests check both against encoding/json, and the
// fuzz targets on any input.
package jsonlite

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// Marshal returns v as JSON, as json.Marshal would.
func Marshal(v any) ([]byte, error) {
	var e encoder
	if err := e.value(reflect.ValueOf(v)); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// MarshalIndent is Marshal with each element on its own line, as
// json.MarshalIndent writes it.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	b, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	return appendIndent(make([]byte, 0, len(b)*2), b, prefix, indent), nil
}

type encoder struct {
	buf   []byte
	depth int
}

// MaxDepth is how deep a value may nest. encoding/json allows 10,000 levels
// when decoding, but in the browser the wasm's stack is the JavaScript
// engine's: during the random walk a log line 5,000 levels deep, replayed,
// overflowed it and killed the page. No document read here nests more than
// a few levels.
// Encoding a pointer cycle stops here too instead of overflowing.
const MaxDepth = 1000

func (e *encoder) value(v reflect.Value) error {
	if !v.IsValid() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	if err := infoOf(v.Type()).ownErr; err != nil {
		return err
	}
	switch v.Kind() {
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return e.float(v.Float(), v.Type().Bits())
	case reflect.String:
		e.buf = appendString(e.buf, v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.nested(v.Elem(), e.value)
	case reflect.Struct:
		return e.nested(v, e.structFields)
	case reflect.Map:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.nested(v, e.mapEntries)
	case reflect.Slice:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return unsupported(v.Type()) // encoding/json writes base64
		}
		return e.nested(v, e.elements)
	case reflect.Array:
		return e.nested(v, e.elements)
	default:
		return unsupported(v.Type())
	}
	return nil
}

func (e *encoder) nested(v reflect.Value, write func(reflect.Value) error) error {
	if e.depth++; e.depth > MaxDepth {
		return fmt.Errorf("jsonlite: %s nests more than %d levels deep", v.Type(), MaxDepth)
	}
	defer func() { e.depth-- }()
	return write(v)
}

func (e *encoder) float(f float64, bits int) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Errorf("jsonlite: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, bits))
	}
	// encoding/json's format: plain decimals, exponents only for very
	// small or large magnitudes, and e-07 written e-7.
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	e.buf = strconv.AppendFloat(e.buf, f, format, -1, bits)
	if n := len(e.buf); format == 'e' && n >= 4 && e.buf[n-4] == 'e' && e.buf[n-3] == '-' && e.buf[n-2] == '0' {
		e.buf[n-2] = e.buf[n-1]
		e.buf = e.buf[:n-1]
	}
	return nil
}

func (e *encoder) structFields(v reflect.Value) error {
	ti := infoOf(v.Type())
	if ti.fieldsErr != nil {
		return ti.fieldsErr
	}
	fs := ti.fields
	e.buf = append(e.buf, '{')
	first := true
	for _, f := range fs {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		if !first {
			e.buf = append(e.buf, ',')
		}
		first = false
		e.buf = appendString(e.buf, f.name)
		e.buf = append(e.buf, ':')
		if err := e.value(fv); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

// mapEntries writes a map with string keys, sorted as encoding/json sorts
// them. The playground's maps have a handful of keys: an insertion sort
// does, and links no sort code.
func (e *encoder) mapEntries(v reflect.Value) error {
	if v.Type().Key().Kind() != reflect.String {
		return unsupported(v.Type())
	}
	type entry struct {
		key string
		val reflect.Value
	}
	entries := make([]entry, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		entries = append(entries, entry{it.Key().String(), it.Value()})
		for i := len(entries) - 1; i > 0 && entries[i].key < entries[i-1].key; i-- {
			entries[i], entries[i-1] = entries[i-1], entries[i]
		}
	}
	e.buf = append(e.buf, '{')
	for i, en := range entries {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendString(e.buf, en.key)
		e.buf = append(e.buf, ':')
		if err := e.value(en.val); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

func (e *encoder) elements(v reflect.Value) error {
	e.buf = append(e.buf, '[')
	for i := range v.Len() {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.value(v.Index(i)); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

// isEmpty is omitempty's test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

const hex = "0123456789abcdef"

// AppendString appends s to b as a JSON string, as encoding/json writes it:
// for writers that lay their JSON out by hand (engine/trace).
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

// appendString writes s as a JSON string the way encoding/json does: HTML's
// <, > and & escaped, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func unsupported(t reflect.Type) error {
	return fmt.Errorf("jsonlite: unsupported type: %s", t)
}
