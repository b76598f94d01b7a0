package jsonlite

import (
	"reflect"
	"strings"
	"sync"
)

// field is one struct field as JSON sees it.
type field struct {
	name      string
	index     int
	omitEmpty bool
}

// typeInfo is what the codec works out once per type.
type typeInfo struct {
	fields    []field // a struct's
	fieldsErr error   // a struct this package does not cover
	ownErr    error   // the type has its own JSON or text methods
}

var (
	infoMu sync.Mutex
	infos  = map[reflect.Type]*typeInfo{}
)

func infoOf(t reflect.Type) *typeInfo {
	infoMu.Lock()
	defer infoMu.Unlock()
	if ti, ok := infos[t]; ok {
		return ti
	}
	ti := &typeInfo{ownErr: checkOwnCodec(t)}
	if t.Kind() == reflect.Struct {
		ti.fields, ti.fieldsErr = structFields(t)
	}
	infos[t] = ti
	return ti
}

// structFields lists t's exported fields in order, named by their json
// tags. Embedded structs, which encoding/json flattens, are not covered.
func structFields(t reflect.Type) ([]field, error) {
	var fs []field
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return nil, unsupported(t)
		}
		if !sf.IsExported() {
			continue
		}
		tag, ok := jsonTag(sf.Tag)
		if !ok {
			return nil, unsupported(t)
		}
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !validName(name) {
			name = sf.Name
		}
		fs = append(fs, field{name: name, index: i, omitEmpty: hasOption(opts, "omitempty")})
	}
	return fs, nil
}

// jsonTag is tag.Get("json") for a value without escapes or non-ASCII, or
// ok=false. (Get unquotes with strconv.Unquote, which only it would link.)
func jsonTag(tag reflect.StructTag) (value string, ok bool) {
	s := string(tag)
	for s != "" {
		s = strings.TrimLeft(s, " ")
		i := 0
		for i < len(s) && s[i] > ' ' && s[i] != ':' && s[i] != '"' && s[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(s) || s[i] != ':' || s[i+1] != '"' {
			return "", true // malformed from here on: Get finds nothing either
		}
		key := s[:i]
		s = s[i+2:]
		end := 0
		for end < len(s) && s[end] != '"' {
			if key == "json" && (s[end] == '\\' || s[end] >= 0x80) {
				return "", false
			}
			if s[end] == '\\' {
				end++ // skip the escaped byte
			}
			end++
		}
		if end >= len(s) {
			return "", true
		}
		if key == "json" {
			return s[:end], true
		}
		s = s[end+1:]
	}
	return "", true
}

func hasOption(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == want {
			return true
		}
	}
	return false
}

// validName is encoding/json's test of an ASCII tag name: a name it would
// not use falls back to the field's.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return true
}

// ownCodecs are the methods through which a type writes or reads its own
// JSON or text: encoding/json would call them, this package does not.
// (Implements, not MethodByName: a MethodByName with a name the linker
// cannot see keeps every exported method in the binary.)
var ownCodecs = []reflect.Type{
	reflect.TypeFor[interface{ MarshalJSON() ([]byte, error) }](),
	reflect.TypeFor[interface{ UnmarshalJSON([]byte) error }](),
	reflect.TypeFor[interface{ MarshalText() ([]byte, error) }](),
	reflect.TypeFor[interface{ UnmarshalText([]byte) error }](),
}

func checkOwnCodec(t reflect.Type) error {
	for _, tt := range []reflect.Type{t, reflect.PointerTo(t)} {
		for _, c := range ownCodecs {
			if tt.Implements(c) {
				return unsupported(t)
			}
		}
	}
	return nil
}
