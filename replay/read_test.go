package replay

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readAll reads every request of text, failing the test on an error.
func readAll(t testing.TB, text string, ten Tenancy) (*Reader, []Request) {
	t.Helper()
	rd, err := NewReader(strings.NewReader(text), ten)
	require.NoError(t, err)
	var out []Request
	for {
		q, err := rd.Read()
		if err == io.EOF {
			return rd, out
		}
		require.NoError(t, err)
		out = append(out, q)
	}
}

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func TestFormats(t *testing.T) {
	tests := []struct {
		name, text string
		format     Format
		want       []Request
	}{
		{"ours JSONL", `{"t": 0, "tenant": "A", "prompt_tokens": 120, "output_tokens": 8}
{"t": 1.25, "tenant": "B", "prompt_tokens": 125, "output_tokens": 0, "extra": [1, {"x": "}"}]}
`, FormatJSONL, []Request{{0, "A", 120, 8, 1, false, ""}, {sec(1.25), "B", 125, 0, 2, false, ""}}},
		{"ours JSONL, keys in any order, escapes", `{"output_tokens":1,"prompt_tokens":2,"tenant":"caf\u00e9 \"x\"","t":3}`,
			FormatJSONL, []Request{{sec(3), `café "x"`, 2, 1, 1, false, ""}}},
		{"ours CSV", "t,tenant,prompt_tokens,output_tokens\n0,A,120,8\n0.5,\"B, Inc\",125,2\n",
			FormatCSV, []Request{{0, "A", 120, 8, 2, false, ""}, {sec(0.5), "B, Inc", 125, 2, 3, false, ""}}},
		{"ours CSV, columns reordered, spaces, CRLF", "prompt_tokens, output_tokens, t, tenant, note\r\n120, 8, 0.000000001, A , hello\r\n",
			FormatCSV, []Request{{1, "A", 120, 8, 2, false, ""}}},
		{"ours CSV without tenants", "t,prompt_tokens,output_tokens\n2,10,1\n",
			FormatCSV, []Request{{sec(2), "line 2", 10, 1, 2, true, ""}}},
		{"Mooncake", `{"timestamp": 0, "input_length": 6758, "output_length": 500, "hash_ids": [0, 1, 2]}
{"timestamp": 1500, "input_length": 7322, "output_length": 490, "hash_ids": []}`,
			FormatMooncake, []Request{{0, "line 1", 6758, 500, 1, true, ""}, {sec(1.5), "line 2", 7322, 490, 2, true, ""}}},
		{"Azure", "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n2023-11-16 18:15:50.9951690,396,109\n",
			FormatAzure, []Request{{0, "line 2", 374, 44, 2, true, ""}, {4314579 * time.Microsecond, "line 3", 396, 109, 3, true, ""}}},
		{"Azure, offsets and a T", "timestamp,contexttokens,generatedtokens\n2024-05-10T00:00:00+00:00,1,1\n2024-05-10 02:00:01.5+02:00,2,2\n",
			FormatAzure, []Request{{0, "line 2", 1, 1, 2, true, ""}, {sec(1.5), "line 3", 2, 2, 3, true, ""}}},
		{"a byte-order mark and blank lines", "\uFEFF\n\n  \n{\"t\":0,\"tenant\":\"A\",\"prompt_tokens\":1,\"output_tokens\":1}\n\n",
			FormatJSONL, []Request{{0, "A", 1, 1, 4, false, ""}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rd, got := readAll(t, tc.text, Tenancy{})
			assert.Equal(t, tc.format, rd.Format())
			assert.Equal(t, tc.want, got)
			assert.Zero(t, rd.Skipped().Count, rd.Skipped().First)
			assert.Equal(t, len(tc.want), rd.Lines())
		})
	}
}

// Each kind of bad line is skipped with a message naming it; the lines
// around it are read.
func TestBadLines(t *testing.T) {
	const ours = `{"t": 1, "tenant": "A", "prompt_tokens": 10, "output_tokens": 1}`
	const csvHead = "t,tenant,prompt_tokens,output_tokens"
	const azureHead = "TIMESTAMP,ContextTokens,GeneratedTokens"
	tests := []struct{ name, first, bad, want string }{
		{"not JSON", ours, `{"t": 1,`, `line 2: is not JSON: unexpected end of JSON input`},
		{"not an object", ours, `[1, 2]`, `line 2: is JSON but an array, not an object`},
		{"missing field", ours, `{"t": 1, "tenant": "A", "prompt_tokens": 10}`, `line 2: output_tokens: is missing`},
		{"a word for a number", ours, `{"t": 1, "tenant": "A", "prompt_tokens": "abc", "output_tokens": 1}`, `line 2: prompt_tokens: "abc" is not a whole number`},
		{"a fraction of a token", ours, `{"t": 1, "tenant": "A", "prompt_tokens": 1.5, "output_tokens": 1}`, `line 2: prompt_tokens: "1.5" is not a whole number`},
		{"negative tokens", ours, `{"t": 1, "tenant": "A", "prompt_tokens": 10, "output_tokens": -1}`, `line 2: output_tokens: "-1" is negative`},
		{"no prompt", ours, `{"t": 1, "tenant": "A", "prompt_tokens": 0, "output_tokens": 1}`, `line 2: prompt_tokens: "0" is less than 1`},
		{"too many tokens", ours, `{"t": 1, "tenant": "A", "prompt_tokens": 99999999999999999999, "output_tokens": 1}`, `line 2: prompt_tokens: "99999999999999999999" is more than 67,108,864, the most the simulation takes`},
		{"too long an output", ours, `{"t": 1, "tenant": "A", "prompt_tokens": 1, "output_tokens": 16777217}`, `line 2: output_tokens: "16777217" is more than 16,777,216, the most the simulation takes`},
		{"negative time", ours, `{"t": -1, "tenant": "A", "prompt_tokens": 10, "output_tokens": 1}`, `line 2: t: "-1" is negative: times count from the log's start`},
		{"exponent", ours, `{"t": 1e3, "tenant": "A", "prompt_tokens": 10, "output_tokens": 1}`, `line 2: t: "1e3" is not a plain decimal number`},
		{"time too late", ours, `{"t": 4294967297, "tenant": "A", "prompt_tokens": 10, "output_tokens": 1}`, `line 2: t: "4294967297" is more than 4,294,967,296 seconds`},
		{"out of order", ours, `{"t": 0.5, "tenant": "A", "prompt_tokens": 10, "output_tokens": 1}`, `line 2: t: "0.5" is earlier than the request on line 1: a log must be in time order`},
		{"twice", ours, `{"t": 1, "t": 2, "tenant": "A", "prompt_tokens": 10, "output_tokens": 1}`, `line 2: t: appears twice`},
		{"tenant a number", ours, `{"t": 1, "tenant": 7, "prompt_tokens": 10, "output_tokens": 1}`, `line 2: tenant: "7" is not text in quotes`},
		{"tenant too long", ours, `{"t": 1, "tenant": "` + strings.Repeat("é", 33) + `", "prompt_tokens": 10, "output_tokens": 1}`, `line 2: tenant: "éééééééééééééééééééé"… has 33 characters: at most 32 allowed`},
		{"tenant with a control character", ours, `{"t": 1, "tenant": "A\u0007", "prompt_tokens": 10, "output_tokens": 1}`, `line 2: tenant: "A\a" contains a control or invisible character (U+0007)`},
		{"tenant not UTF-8", csvHead, "1,\xff,10,1", `line 2: tenant: is not valid UTF-8`},
		{"CSV, open quote", csvHead, `1,"A,10,1`, `line 2: is not CSV: extraneous or missing " in quoted-field`},
		{"CSV, bare quote", csvHead, `1,A"B,10,1`, `line 2: is not CSV: bare " in non-quoted-field`},
		{"CSV, too few fields", csvHead, `1,A,10`, `line 2: has 3 fields, the header 4`},
		{"CSV, empty cell", csvHead, `1,A,,1`, `line 2: prompt_tokens: is empty`},
		{"Mooncake, ms not a number", `{"timestamp": 0, "input_length": 1, "output_length": 1}`, `{"timestamp": "soon", "input_length": 1, "output_length": 1}`, `line 2: timestamp: "soon" is not a plain decimal number`},
		{"Azure, bad date", azureHead, `2023-11-16 25:15:46.68,1,1`, `line 2: TIMESTAMP: "2023-11-16 25:15:46.68" is not a date and time such as 2023-11-16 18:15:46.6805900`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			good := tc.first
			if strings.HasPrefix(tc.first, "t,") {
				good = "1,A,10,1"
			} else if strings.HasPrefix(tc.first, "TIMESTAMP") {
				good = "2023-11-16 18:15:46,10,1"
			}
			text := tc.first + "\n" + tc.bad + "\n" + good + "\n"
			rd, got := readAll(t, text, Tenancy{})
			s := rd.Skipped()
			require.Equal(t, 1, s.Count)
			assert.Equal(t, tc.want, s.First[0].Error())
			assert.Equal(t, 2, s.First[0].Line)
			assert.NotEmpty(t, got, "the good lines are read")
			assert.Equal(t, rd.Lines(), len(got)+s.Count)
		})
	}
}

func TestOutOfOrderNamesTheLineBefore(t *testing.T) {
	rd, got := readAll(t, "t,tenant,prompt_tokens,output_tokens\n0,A,1,1\n5,A,1,1\n3,A,1,1\n5,B,1,1\n6,C,1,1\n", Tenancy{})
	assert.Equal(t, []int{2, 3, 5, 6}, lines(got), "equal times are in order")
	assert.Equal(t, `line 4: t: "3" is earlier than the request on line 3: a log must be in time order`, rd.Skipped().First[0].Error())
}

func lines(qs []Request) []int {
	var out []int
	for _, q := range qs {
		out = append(out, q.Line)
	}
	return out
}

func TestLongLine(t *testing.T) {
	long := `{"t": 0, "tenant": "A", "prompt_tokens": 1, "output_tokens": 1, "pad": "` + strings.Repeat("x", MaxLineBytes) + `"}`
	ok := `{"t": 0, "tenant": "A", "prompt_tokens": 1, "output_tokens": 1}`
	rd, got := readAll(t, ok+"\n"+long+"\n"+ok, Tenancy{})
	assert.Equal(t, []int{1, 3}, lines(got))
	assert.Equal(t, "line 2: is longer than 1,048,576 bytes", rd.Skipped().First[0].Error())

	_, err := NewReader(strings.NewReader(long), Tenancy{})
	assert.EqualError(t, err, "line 1 is longer than 1,048,576 bytes: not a request log")
}

func TestSkipsKeptAndCounted(t *testing.T) {
	var b strings.Builder
	b.WriteString("t,tenant,prompt_tokens,output_tokens\n")
	for range 250 {
		b.WriteString("x,A,1,1\n")
	}
	b.WriteString("1,A,1,1\n")
	rd, got := readAll(t, b.String(), Tenancy{})
	s := rd.Skipped()
	assert.Len(t, got, 1)
	assert.Equal(t, 250, s.Count)
	assert.Len(t, s.First, MaxSkipsKept)
	assert.Equal(t, 101, s.First[99].Line)
	assert.Equal(t, 251, rd.Lines())
}

func TestUnreadableLogs(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"empty", "", "the log is empty"},
		{"blank", "\n \r\n\t\n", "the log is empty"},
		{"unknown CSV", "time,who,in,out\n1,A,1,1\n", `line 1 is not a log we read: it starts "time,who,in,out"; a log is JSON lines (ours or Mooncake's) or CSV with the header t,tenant,prompt_tokens,output_tokens (ours) or TIMESTAMP,ContextTokens,GeneratedTokens (Azure's)`},
		{"no header", "0,A,120,8\n", `line 1 is not a log we read: it starts "0,A,120,8"; a log is JSON lines (ours or Mooncake's) or CSV with the header t,tenant,prompt_tokens,output_tokens (ours) or TIMESTAMP,ContextTokens,GeneratedTokens (Azure's)`},
		{"half a header", "t,tenant,prompt_tokens\n", "line 1: the header has some of kvleak CSV's columns but not output_tokens"},
		{"Azure's header, short", "TIMESTAMP,ContextTokens\n", "line 1: the header has some of Azure LLM inference trace (CSV)'s columns but not GeneratedTokens"},
		{"a column twice", "t,t,prompt_tokens,output_tokens\n", `line 1: the header names the column "t" twice`},
		{"broken header", "t,\"tenant,prompt_tokens\n", `line 1: is not CSV: extraneous or missing " in quoted-field`},
		{"other JSON", "\n{\"time\": 1}\n", "line 2 is JSON with neither our keys (t, tenant, prompt_tokens, output_tokens) nor Mooncake's (timestamp, input_length, output_length, hash_ids)"},
		{"broken JSON", "{\"t\": 1,,}\n", "line 1 starts with { but is not JSON: invalid character ',' at byte 9, looking for the start of an object key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rd, err := NewReader(strings.NewReader(tc.text), Tenancy{})
			assert.EqualError(t, err, tc.want)
			assert.Nil(t, rd)
		})
	}
}

func TestNoGoodLine(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"header only", "t,tenant,prompt_tokens,output_tokens\n", "the log has a header but no requests"},
		{"one bad line", "TIMESTAMP,ContextTokens,GeneratedTokens\nyesterday,1,1\n", `no request could be read: the one line was skipped, line 2: TIMESTAMP: "yesterday" is not a date and time such as 2023-11-16 18:15:46.6805900`},
		{"all bad", `{"t": 0, "prompt_tokens": 0, "output_tokens": 1}` + "\n" + `{"t": 0}`, `no request could be read: all 2 lines were skipped; the first, line 1: prompt_tokens: "0" is less than 1`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rd, err := NewReader(strings.NewReader(tc.text), Tenancy{})
			require.NoError(t, err)
			_, err = rd.Read()
			assert.EqualError(t, err, tc.want)
			_, again := rd.Read()
			assert.Equal(t, err, again, "the end stays the end")
		})
	}
}

type failing struct{ n int }

func (f *failing) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("disk on fire")
	}
	f.n = 0
	return copy(p, "t,tenant,prompt_tokens,output_tokens\n1,A,1,1\n"), nil
}

func TestReadError(t *testing.T) {
	rd, err := NewReader(&failing{n: 1}, Tenancy{})
	require.NoError(t, err)
	q, err := rd.Read()
	require.NoError(t, err)
	assert.Equal(t, 2, q.Line)
	_, err = rd.Read()
	assert.EqualError(t, err, "reading line 3: disk on fire")
}
