package jsonlite

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encoding/json is the oracle: within the kinds this package covers, both
// must write the same bytes and read the same values.

type name string

type inner struct {
	X int    `json:"x"`
	Y *int   `json:"y"`
	Z []name `json:"z,omitempty"`
}

// record has the kinds Unmarshal reads.
type record struct {
	B       bool     `json:"b"`
	I       int      `json:"i,omitempty"`
	I8      int8     // no tag: the Go name
	U16     uint16   `json:"u16"`
	S       string   `json:"s"`
	N       name     `json:"name,omitempty"`
	P       *inner   `json:"p,omitempty"`
	L       []inner  `json:"l"`
	LS      []string `json:"ls,omitempty"`
	A       [2]int   `json:"a"`
	Skip    int      `json:"-"`
	Dash    int      `json:"-,"`
	Odd     int      `json:"a'b" xml:"\"q\""` // not a name encoding/json uses
	Opts    int      `json:",omitempty,string2"`
	private int
}

// sample adds what Marshal writes and Unmarshal does not read.
type sample struct {
	R   record            `json:"r"`
	F   float64           `json:"f"`
	F32 float32           `json:"f32,omitempty"`
	M   map[name]int      `json:"m,omitempty"`
	MP  map[string]*inner `json:"mp"`
	Any any               `json:"any,omitempty"`
}

func filledRecord() record {
	seven := 7
	return record{B: true, I: -3, I8: 8, U16: 16, S: "old", N: "n",
		P: &inner{X: 1, Y: &seven, Z: []name{"a"}}, L: []inner{{X: 1}, {X: 2, Z: []name{"b", "c"}}},
		A: [2]int{4, 5}, Skip: 1, Dash: 2, Odd: 3, private: 4}
}

func filled() sample {
	return sample{R: filledRecord(), F: 0.25, F32: 1.5, M: map[name]int{"k": 1, "a": 2, "z": 0, "m": 3},
		MP: map[string]*inner{"q": {X: 9}, "": nil}, Any: []any{1, "x"}}
}

func TestMarshalWritesWhatEncodingJSONWrites(t *testing.T) {
	one := 1
	for _, v := range []any{
		filled(), sample{}, &sample{R: record{L: []inner{}, LS: []string{}}, M: map[name]int{}}, filledRecord(),
		[]any{nil, 1, "two", 3.5, true, map[string]int{"b": 2, "a": 1}, &one, []int(nil)},
		"<b>&\u2028\u2029\x00\x1f\b\f\n\r\t\"\\ \xff\xfe ok é 😀", 1e21, 1e20, 1e-6, 1e-7, -0.0, 123456789.125,
		float32(1e-7), float32(3.4e38), math.MaxInt64, uint64(math.MaxUint64), map[string][]int{"x": {}, "": nil},
		[0]int{}, [][]int{{}, {1}},
	} {
		want, err := json.Marshal(v)
		require.NoError(t, err)
		got, err := Marshal(v)
		require.NoError(t, err, "%#v", v)
		assert.Equal(t, string(want), string(got), "%#v", v)

		want, err = json.MarshalIndent(v, ">", "\t")
		require.NoError(t, err)
		got, err = MarshalIndent(v, ">", "\t")
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%#v", v)
	}
}

type ownJSON struct{}

func (ownJSON) MarshalJSON() ([]byte, error) { return []byte(`"mine"`), nil }

type ownText int

func (*ownText) UnmarshalText([]byte) error { return nil }

type embeds struct {
	inner
	W int
}

type nonASCII struct {
	V int `json:"é"`
}

func TestWhatIsNotCoveredIsAnError(t *testing.T) {
	for _, v := range []any{make(chan int), []byte("x"), map[int]int{1: 1}, ownJSON{}, []ownText{1}, embeds{},
		nonASCII{}, math.NaN(), math.Inf(-1), func() {}, complex(1, 2)} {
		_, err := Marshal(v)
		assert.Error(t, err, "%#v", v)
	}
	for _, target := range []any{new([]byte), new(map[string]int), new(float64), new(ownText), new(embeds), new(any), new(ownJSON)} {
		assert.Error(t, Unmarshal([]byte(`{"x":1}`), target), "%T", target)
	}
	assert.ErrorContains(t, Unmarshal([]byte(`{"f":1}`), new(sample)), "unsupported type: float64", "floats are written, not read")
	assert.ErrorContains(t, Unmarshal([]byte(`{"m":{}}`), new(sample)), "unsupported type: map", "maps are written, not read")
	assert.ErrorContains(t, Unmarshal([]byte(`1`), record{}), "non-nil pointer")
	assert.ErrorContains(t, Unmarshal([]byte(`1`), (*record)(nil)), "non-nil pointer")
}

func TestUnmarshalSaysWhereTheJSONIsWrong(t *testing.T) {
	for in, want := range map[string]string{
		``:                    "unexpected end of JSON input",
		`{"s": "x"`:           "unexpected end of JSON input",
		`hello`:               "invalid character 'h' at byte 1, looking for the start of a value",
		`{"s": "x"} x`:        "invalid character 'x' at byte 12, after the top-level value",
		`{"s" 1}`:             "invalid character '1' at byte 6, after an object key",
		`{"l": [{"x": "1"}]}`: `at byte 14 (l.x): a string cannot be read into a Go int`,
		`{"i8": 300}`:         "at byte 8 (i8): the number 300 cannot be read into a Go int8",
		`{"u16": -1}`:         "the number -1 cannot be read into a Go uint16",
		`{"i": 1.5}`:          "the number 1.5 cannot be read into a Go int",
		`{"b": "true"}`:       "a string cannot be read into a Go bool",
		`{"s": tru}`:          "invalid character '}' at byte 10, in the literal true",
		`{"s": "\q"}`:         `invalid character 'q' at byte 9, in a string escape`,
		"{\"s\": \"\t\"}":     `invalid character '\t' at byte 8, in a string`,
		`{"a": {}}`:           "an object cannot be read into a Go [2]int",
		`[1]`:                 "an array cannot be read into a Go jsonlite.record",
		`{"zz":` + strings.Repeat("[", MaxDepth+1): "nests more than 1000 levels deep",
	} {
		var v record
		assert.ErrorContains(t, Unmarshal([]byte(in), &v), want, "%q", in)
		assert.Error(t, json.Unmarshal([]byte(in), &v), "encoding/json refuses %q too", in)
	}
}

// A value of the wrong kind is a *TypeError that says where it is, for a
// caller to word the message itself.
func TestUnmarshalTypeError(t *testing.T) {
	var v record
	err := Unmarshal([]byte(`{"l": [{"x": 1.5}]}`), &v)
	var te *TypeError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, []string{"l", "x"}, te.Path)
	assert.Equal(t, "the number 1.5", te.Value)
	assert.Equal(t, 14, te.Offset)
	assert.Equal(t, "int", te.Type.String())
}

// The fuzz targets compare with encoding/json on any input.

func FuzzMarshal(f *testing.F) {
	f.Add("plain", int64(1), 0.5, true, "  ")
	f.Add("<\u2028>\xff\"\\\x01", int64(-1<<63), 1e21, false, "\t")
	f.Add("", int64(0), -1e-7, true, "")
	f.Fuzz(func(t *testing.T, s string, i int64, fl float64, b bool, indent string) {
		seven := int(i)
		r := record{B: b, I: int(i), I8: int8(i), U16: uint16(i), S: s, N: name(s),
			P: &inner{X: int(i), Y: &seven, Z: []name{name(s)}}, L: []inner{{X: int(i)}}, LS: []string{s, s}}
		v := sample{R: r, F: fl, F32: float32(fl), M: map[name]int{name(s): int(i), "k": 1}, MP: map[string]*inner{s: nil}, Any: s}
		for _, v := range []any{v, s, fl, map[string]string{s: s}} {
			want, werr := json.Marshal(v)
			got, err := Marshal(v)
			require.Equal(t, werr == nil, err == nil, "errors: encoding/json %v, jsonlite %v", werr, err)
			assert.Equal(t, string(want), string(got))
			if !isSpace(indent) {
				continue // encoding/json's indent must be white space
			}
			want, _ = json.MarshalIndent(v, indent, indent)
			got, _ = MarshalIndent(v, indent, indent)
			assert.Equal(t, string(want), string(got))
		}
	})
}

func isSpace(s string) bool { return strings.Trim(s, " \t\n\r") == "" }

// FuzzUnmarshal: jsonlite reads what encoding/json reads, and fails where
// it fails, up to MaxDepth levels of nesting. Deeper, jsonlite refuses what
// encoding/json reads (up to its own 10,000) with the depth error.
func FuzzUnmarshal(f *testing.F) {
	for _, v := range []record{filledRecord(), {}} {
		b, _ := json.Marshal(v)
		f.Add(b)
		b, _ = json.MarshalIndent(v, "", " ")
		f.Add(b)
	}
	for _, s := range []string{`null`, `{"S":"case","NAME":"n","b":null,"p":null,"l":null}`, `{"l":[{"x":1}],"l":[{"z":["q"]}]}`,
		`{"m":{"a":1},"m":{"b":2},"a":[1,2,3]}`, `{"s":"\ud83d\ude00 \ud800 \udc00\ud800\ud800\u0041 \u00e9"}`, "{\"s\":\"\xff\xfe\"}",
		`{"i":-0,"u16":65535,"I8":-128}`, `{"p":{"y":null},"p":{"x":2}}`, `{"unknown":[{"deep":[1,"x",null]}]}`,
		`{"a":[]}`, `{"ls":[]}`, ` {"i8": 127} `, `{"a'b": 1, "Odd": 2, "-": 3, "Skip": 4, "private": 5}`, `[`, `{"s":"\u12"}`, `01`, `1.`, `-`, `1e`,
		nested(MaxDepth - 1), nested(MaxDepth), nested(MaxDepth + 1)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, start := range []func() record{filledRecord, func() record { return record{} }} {
			want, got := start(), start()
			werr := json.Unmarshal(data, &want)
			err := Unmarshal(data, &got)
			if depthOf(data) > MaxDepth {
				require.Error(t, err, "%d levels deep", depthOf(data))
				if werr == nil {
					assert.ErrorContains(t, err, "levels deep")
				}
				continue
			}
			require.Equal(t, werr == nil, err == nil, "errors on %q: encoding/json %v, jsonlite %v", data, werr, err)
			if err == nil {
				assert.Equal(t, want, got, "%q", data)
			}
		}
	})
}

// nested is a record whose unknown field nests arrays n levels deep in all.
func nested(n int) string {
	return `{"unknown":` + strings.Repeat("[", n-1) + strings.Repeat("]", n-1) + "}"
}

// depthOf is how deep data's brackets nest outside its strings.
func depthOf(data []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range data {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped, inString = c == '\\', c != '"'
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// JSON nested as deep as it may be is read, or refused, without running
// out of stack: in the browser the wasm's stack is the JavaScript engine's,
// and overflowing it kills the page (the random walk found it). make test
// also runs it as the page does: GOOS=js, compiled with the wasm's flags, in
// Node at V8's default stack, where a MaxDepth of 7,000 overflows.
func TestDeepNestingFitsTheStack(t *testing.T) {
	type line struct {
		T int `json:"t"`
	}
	for name, doc := range map[string]string{
		"objects": `{"t": 1, "x": ` + strings.Repeat(`{"a":`, MaxDepth-1) + "1" + strings.Repeat("}", MaxDepth-1) + "}",
		"arrays":  `{"t": 1, "x": ` + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + "}",
		"mixed":   `{"t": 1, "x": ` + strings.Repeat(`[{"a":`, (MaxDepth-1)/2) + "1" + strings.Repeat("}]", (MaxDepth-1)/2) + "}",
	} {
		var into line
		require.NoError(t, Unmarshal([]byte(doc), &into), name)
		assert.Equal(t, 1, into.T, name)
		require.NoError(t, Unmarshal([]byte(doc), &struct{}{}), name)
		require.Error(t, Unmarshal([]byte(doc[:len(doc)-1]+"]}"), &struct{}{}), name)
	}
	deeper := `{"x": ` + strings.Repeat("[", MaxDepth+1)
	assert.ErrorContains(t, Unmarshal([]byte(deeper), &struct{}{}), "levels deep")
}
