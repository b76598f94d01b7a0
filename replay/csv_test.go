package replay

import (
	"encoding/csv"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// csvCells is what encoding/csv makes of one line, read as the reader read
// it before the splitter: alone, leading spaces trimmed, any count of
// fields.
func csvCells(line string) ([]string, error) {
	r := csv.NewReader(strings.NewReader(line))
	r.FieldsPerRecord, r.TrimLeadingSpace = -1, true
	rec, err := r.Read()
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return nil, pe.Err
	}
	return rec, err
}

func TestCellsSplitAsRFC4180(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
		err  string
	}{
		{`a,b,c`, []string{"a", "b", "c"}, ""},
		{` a , "b, c" ,d`, nil, `is not CSV: extraneous or missing " in quoted-field`},
		{` a , "b, c",d `, []string{"a ", "b, c", "d "}, ""},
		{`"say ""hi""",,`, []string{`say "hi"`, "", ""}, ""},
		{`1,"A,10,1`, nil, `is not CSV: extraneous or missing " in quoted-field`},
		{`1,A"B,10,1`, nil, `is not CSV: bare " in non-quoted-field`},
		{`"a"b`, nil, `is not CSV: extraneous or missing " in quoted-field`},
		{"x,y\r", []string{"x", "y"}, ""},
		{`""`, []string{""}, ""},
	} {
		got, err := newCells().split([]byte(c.line))
		if c.err != "" {
			assert.EqualError(t, err, c.err, c.line)
			continue
		}
		require.NoError(t, err, c.line)
		assert.Equal(t, c.want, got, c.line)
		want, err := csvCells(c.line)
		require.NoError(t, err, c.line)
		assert.Equal(t, want, got, "%s: as encoding/csv", c.line)
	}
}

// FuzzCellsAsEncodingCSV: for any one line, the splitter gives the cells
// encoding/csv gives, or refuses it as encoding/csv does.
func FuzzCellsAsEncodingCSV(f *testing.F) {
	for _, s := range []string{`a,b`, ` "x""y" ,z`, `"`, `a"`, `"a"b`, "\u00a0\"q\",\t\"r\"", "a\rb", "a,b\r", "\"a\r\"", ",,"} {
		f.Add(s)
	}
	c := newCells()
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") || strings.TrimSpace(line) == "" {
			return // the line reader gives neither
		}
		want, wantErr := csvCells(line)
		got, err := c.split([]byte(line))
		if wantErr != nil {
			if err == nil || !strings.HasSuffix(err.Error(), wantErr.Error()) {
				t.Fatalf("%q: encoding/csv refuses it (%v), the splitter says %q, %v", line, wantErr, got, err)
			}
			return
		}
		if err != nil || !equalCells(got, want) {
			t.Fatalf("%q: encoding/csv %q, the splitter %q, %v", line, want, got, err)
		}
	})
}

func equalCells(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
