package replay

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// handMadeLog is TestReplayHandMadeLog's log.
const handMadeLog = "t,tenant,prompt_tokens,output_tokens\n0,A,120,10\n1,C,40,0\n2,B,125,2\n3,B,300,2\n4,B,137,2\n5,A,128,2\n6,D,200,2\n"

// withFiles replays log writing both files.
func withFiles(t *testing.T, log string, opts Options) (Result, string, string) {
	t.Helper()
	var pairs, tenants bytes.Buffer
	opts.Files = Files{Pairs: &pairs, Tenants: &tenants}
	return run(t, log, opts), pairs.String(), tenants.String()
}

// The hand-made log's files, worked out from its leaks (see
// TestReplayHandMadeLog): a row per victim of each leaked response, and a
// row per exposed tenant.
func TestFilesOfTheHandMadeLog(t *testing.T) {
	res, pairs, tenants := withFiles(t, handMadeLog, demoOptions())
	assert.Equal(t, "victim,recipient,recipient_line,recipient_log_time_s,pages,tokens,instance\r\n"+
		"\"C\",\"B\",4,2,2,24,1\r\n"+
		"\"A\",\"B\",4,2,5,95,1\r\n"+
		"\"C\",\"A\",7,5,2,24,1\r\n", pairs)
	assert.Equal(t, "tenant,responses,pages,tokens,first_log_time_s,last_log_time_s,recipients,recipient_names\r\n"+
		"\"C\",2,4,48,2,5,2,\"B\nA\"\r\n"+
		"\"A\",1,5,95,2,2,1,\"B\"\r\n", tenants)
	with, _ := json.Marshal(res)
	without, _ := json.Marshal(run(t, handMadeLog, demoOptions()))
	assert.JSONEq(t, string(without), string(with), "the files change nothing else")

	// A log without a leak: the headers alone.
	_, pairs, tenants = withFiles(t, "t,tenant,prompt_tokens,output_tokens\n0,A,12,1\n", demoOptions())
	assert.Equal(t, PairsHeader+"\r\n", pairs)
	assert.Equal(t, TenantsHeader+"\r\n", tenants)
}

// A writer that fails stops the replay with its error.
func TestFilesWriteErrorStopsTheReplay(t *testing.T) {
	opts := demoOptions()
	opts.Files.Tenants = failingWriter{}
	_, err := Run(strings.NewReader(handMadeLog), opts)
	assert.ErrorContains(t, err, "writing a file: disk full")
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("disk full") }

func TestSafeText(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+A": "'+A", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx",
		"'=x": "''=x", "A": "A", "": "", "a=b": "a=b", `"q"`: `"q"`,
	} {
		assert.Equal(t, want, safeText(in), "%q", in)
	}
}

func TestSeconds(t *testing.T) {
	for d, want := range map[int64]string{0: "0", 1: "0.000000001", 1_500_000_000: "1.5", 12_000_000_000: "12", 3_000_000_010: "3.00000001"} {
		assert.Equal(t, want, string(appendSeconds(nil, timeNs(d))))
	}
}

// unsafeText is what safeText's reader does: one ' in front dropped.
func unsafeText(s string) string { return strings.TrimPrefix(s, "'") }

// FuzzFilesHostileNames: whatever two tenants are called, the files are
// CSV that encoding/csv reads back to their names, and no cell of theirs
// starts as a formula.
func FuzzFilesHostileNames(f *testing.F) {
	for _, s := range [][2]string{{"=HYPERLINK(\"http://x\",\"y\")", "+1"}, {"-2+3", "@SUM(A1:A9)"}, {"'=x", "''"}, {"a,b", "c\"d"}, {"A", "B"}, {"=cmd|' /C calc'!A0", "é=ü"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, victim, recipient string) {
		if checkTenant(victim) != nil || checkTenant(recipient) != nil || victim == recipient {
			return // the reader skips such a line; one tenant does not leak to itself
		}
		v, _ := json.Marshal(victim)
		r, _ := json.Marshal(recipient)
		log := fmt.Sprintf("{\"t\": 0, \"tenant\": %s, \"prompt_tokens\": 120, \"output_tokens\": 4}\n{\"t\": 1, \"tenant\": %s, \"prompt_tokens\": 125, \"output_tokens\": 4}\n", v, r)
		_, pairs, tenants := withFiles(t, log, demoOptions())

		rows := readCSV(t, pairs, PairsHeader)
		if len(rows) != 1 || unsafeText(rows[0][0]) != victim || unsafeText(rows[0][1]) != recipient || rows[0][2] != "2" {
			t.Fatalf("pairs file %q for %q → %q", pairs, victim, recipient)
		}
		rows = readCSV(t, tenants, TenantsHeader)
		if len(rows) != 1 || unsafeText(rows[0][0]) != victim || unsafeText(rows[0][7]) != recipient {
			t.Fatalf("tenants file %q for %q → %q", tenants, victim, recipient)
		}
	})
}

// readCSV reads a file's rows under its header and checks that no cell
// starts as a formula.
func readCSV(t *testing.T, text, header string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	require.NoError(t, err, text)
	require.NotEmpty(t, rows)
	require.Equal(t, strings.Split(header, ","), rows[0])
	for _, row := range rows[1:] {
		for _, cell := range row {
			for _, line := range strings.Split(cell, "\n") {
				if line != "" && strings.ContainsAny(line[:1], "=+-@\t\r") {
					t.Fatalf("a cell starts as a formula: %q in %q", line, text)
				}
			}
		}
	}
	return rows[1:]
}

func timeNs(n int64) time.Duration { return time.Duration(n) }
