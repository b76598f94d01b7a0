package replay

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/testskip"
)

// readFile reads every request of a log file.
func readFile(t testing.TB, name string) (*Reader, []Request) {
	t.Helper()
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	rd, err := NewReader(f, Tenancy{})
	require.NoError(t, err, name)
	var out []Request
	for {
		q, err := rd.Read()
		if err == io.EOF {
			return rd, out
		}
		require.NoError(t, err, name)
		out = append(out, q)
	}
}

// The excerpts in testdata are the published traces' own lines (see
// testdata/README.md).
func TestPublishedExcerpts(t *testing.T) {
	tests := []struct {
		file        string
		format      Format
		n           int
		first, last Request
	}{
		{"mooncake-conversation-head.jsonl", FormatMooncake, 20,
			Request{0, "line 1", 6758, 500, 1, true, ""}, Request{3 * time.Second, "line 20", 16609, 349, 20, true, ""}},
		{"mooncake-synthetic-head.jsonl", FormatMooncake, 10,
			Request{0, "line 1", 40160, 6, 1, true, ""}, Request{1731 * time.Millisecond, "line 10", 16838, 292, 10, true, ""}},
		{"azure-llm-conv-2023-head.csv", FormatAzure, 20,
			Request{0, "line 2", 374, 44, 2, true, ""}, Request{13025088 * time.Microsecond, "line 21", 1353, 142, 21, true, ""}},
		{"azure-llm-code-2023-tail.csv", FormatAzure, 10,
			Request{0, "line 2", 607, 10, 2, true, ""}, Request{2000933 * time.Microsecond, "line 11", 549, 173, 11, true, ""}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			rd, got := readFile(t, filepath.Join("testdata", tc.file))
			assert.Equal(t, tc.format, rd.Format())
			require.Len(t, got, tc.n)
			assert.Zero(t, rd.Skipped().Count)
			assert.Equal(t, tc.first, got[0])
			assert.Equal(t, tc.last, got[len(got)-1])
		})
	}
}

// The published traces are read in full where they are kept beside the
// repository; without them those tests skip, listed in make test's summary.
// What the repository holds of them, the excerpts and the samples, is
// checked without them.
func TestPublishedTracesInFull(t *testing.T) {
	for name, n := range map[string]int{
		"mooncake-conversation.jsonl": 12_031, "mooncake-synthetic.jsonl": 3_993,
		"azure-llm-conv-2023.csv": 19_366, "azure-llm-code-2023.csv": 8_819,
	} {
		t.Run(name, func(t *testing.T) {
			rd, got := readFile(t, testskip.PublishedTrace(t, "..", name))
			assert.Len(t, got, n)
			assert.Zero(t, rd.Skipped().Count, rd.Skipped().First)
		})
	}
}

// shippedSamples are the samples the page offers (static/traces, made by
// cmd/gentraces), each with its source, its count and the excerpt of its
// source in testdata: the first lines, or the last.
var shippedSamples = []struct {
	sample, source string
	n              int
	excerpt        string
	tail           bool
}{
	{"mooncake-conversation.csv", "mooncake-conversation.jsonl", 12_031, "mooncake-conversation-head.jsonl", false},
	{"mooncake-synthetic.csv", "mooncake-synthetic.jsonl", 3_993, "mooncake-synthetic-head.jsonl", false},
	{"azure-llm-code-2023.csv", "azure-llm-code-2023.csv", 8_819, "azure-llm-code-2023-tail.csv", true},
}

// The samples are read in full, and hold the published lines of their
// excerpts where the excerpts were taken: the same tokens at the same
// times from the first of them.
func TestShippedSamples(t *testing.T) {
	for _, tc := range shippedSamples {
		t.Run(tc.sample, func(t *testing.T) {
			rd, got := readFile(t, filepath.Join("../static/traces", tc.sample))
			assert.Equal(t, FormatCSV, rd.Format())
			require.Len(t, got, tc.n)
			assert.Zero(t, rd.Skipped().Count)
			_, want := readFile(t, filepath.Join("testdata", tc.excerpt))
			from := 0
			if tc.tail {
				from = len(got) - len(want)
			}
			for i, w := range want {
				g := got[from+i]
				assert.Equal(t, []any{w.At - want[0].At, w.PromptTokens, w.OutputTokens},
					[]any{g.At - got[from].At, g.PromptTokens, g.OutputTokens}, "%s line %d", tc.excerpt, w.Line)
			}
		})
	}
}

// The samples hold every request of their sources, unchanged.
func TestShippedSamplesEqualTheirSources(t *testing.T) {
	for _, tc := range shippedSamples {
		t.Run(tc.sample, func(t *testing.T) {
			_, got := readFile(t, filepath.Join("../static/traces", tc.sample))
			_, want := readFile(t, testskip.PublishedTrace(t, "..", tc.source))
			require.Len(t, want, tc.n)
			// The sample has a header line the JSONL source has not.
			shift := 1
			if filepath.Ext(tc.source) == ".csv" {
				shift = 0
			}
			for i := range want {
				w := want[i]
				w.Line += shift
				w.Tenant = "line " + strconv.Itoa(w.Line)
				if !assert.Equal(t, w, got[i]) {
					return
				}
			}
		})
	}
}
