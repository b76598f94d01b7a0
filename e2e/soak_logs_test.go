package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kvleak/replay"
)

// soakLogs are the request logs the walk pastes into the Replay panel and
// drops on it as files: each format it reads, and logs it must refuse or
// skip line by line with a message — never a dead page.
var soakLogs = []string{
	// good, one of each format
	replayDemoLog,
	`{"t": 0, "tenant": "A", "prompt_tokens": 120, "output_tokens": 4}` + "\n" + `{"t": 1, "tenant": "B", "prompt_tokens": 125, "output_tokens": 4}`,
	`{"timestamp": 0, "input_length": 6758, "output_length": 500, "hash_ids": [0, 1, 2]}` + "\n" + `{"timestamp": 40, "input_length": 900000, "output_length": 3, "hash_ids": [3]}`,
	"TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n2023-11-16 18:15:50.9951690,200000,109\n",
	"\ufeffTIMESTAMP,ContextTokens,GeneratedTokens\r\n2023-11-16 18:15:46.6805900,374,44\r\n",
	// bad or odd
	"", "\n\n\n", "t,tenant,prompt_tokens,output_tokens\n", "not a log at all",
	"t,tenant,prompt_tokens,output_tokens\n-1,A,-5,4\n0,B,0,0\n1,C,99999999999999999999,1\nNaN,D,12,Infinity\n",
	"t,tenant,prompt_tokens,output_tokens\n5,A,10,1\n1,B,10,1\n3,\"C,\"\"x\",10,1\n",
	"t,tenant,prompt_tokens,output_tokens\n0,<img src=x onerror=alert(1)>,10,1\n0,\u202eRTL,10,1\n0,ça 🙂,10,1\n",
	"t,tenant,prompt_tokens\n0,A,10\n", "a,b,c,d,e\n1,2,3,4,5\n",
	"TIMESTAMP,ContextTokens,GeneratedTokens\n2023-13-45 99:99:99.0,374,44\nyesterday,1,1\n",
	`{"timestamp": "0", "input_length": null, "output_length": [], "hash_ids": {}}`,
	`{"t": 1e308, "tenant": 7, "prompt_tokens": 1.5, "output_tokens": -0}`,
	`{"t": 0, "tenant": "A", "prompt_tokens": 10, "output_tokens": 1, "x": ` + strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000) + "}",
	`{"timestamp": 0, "input_length": 10, "output_length": 1, "hash_ids": [` + strings.Repeat("1,", 200_000) + "1]}",
	"{\"t\": 0, \"tenant\": \"A\"\n}\n[1,2,3]\nnull\n",
	"\x00\x01\x02\xff\xfe binary",
	strings.Repeat("9", replay.MaxLineBytes+1),
	"t,tenant,prompt_tokens,output_tokens\n" + strings.Repeat("0,A,100000,1000\n", 20_000),
}

// soakLogFiles writes soakLogs as files for the Replay panel's file input,
// with one more: 50 MB, sparse, which it must read a line at a time.
func soakLogFiles(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, body := range soakLogs {
		p := filepath.Join(dir, "log-"+string(rune('a'+i%26))+strings.Repeat("x", i/26)+".txt")
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		paths = append(paths, p)
	}
	huge := filepath.Join(dir, "huge.csv")
	require.NoError(t, os.WriteFile(huge, []byte(replayDemoLog), 0o644))
	require.NoError(t, os.Truncate(huge, 50<<20))
	return append(paths, huge)
}
