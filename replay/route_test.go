package replay

import (
	"hash/fnv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func instances(n int) Options {
	opts := demoOptions()
	opts.Instances = n
	return opts
}

// Round-robin: through two instances the demo's B lands beside nobody's
// KV; with a request between them, beside A's again, on instance 1.
func TestInstancesRoundRobin(t *testing.T) {
	res := run(t, "t,tenant,prompt_tokens,output_tokens\n0,A,120,4\n1,B,125,4\n", instances(2))
	assert.Zero(t, res.Vulnerable.Leaked, "A on instance 1, B on instance 2")
	assert.Equal(t, 2, res.Instances)

	res, pairs, _ := withFiles(t, "t,tenant,prompt_tokens,output_tokens\n0,A,120,4\n0.5,X,10,1\n1,B,125,4\n", instances(2))
	v := res.Vulnerable
	require.Equal(t, 1, v.Leaked)
	assert.Equal(t, []Pair{{Victim: "A", Recipient: "B", Responses: 1, Pages: 7, Tokens: 119, Instances: []int{1}}}, v.Pairs)
	assert.Equal(t, 1, v.FirstLeak.Instance)
	assert.Equal(t, PairsHeader+"\r\n\"A\",\"B\",4,1,7,119,1\r\n", pairs)
	assert.Contains(t, strings.Join(res.Notes, "\n"), "The log is spread over 2 prefill/decode instances, each with its own two pools and prefill queue, round-robin")
}

// A session stays on the instance a hash of it picks (FNV-1a, here from
// hash/fnv); requests without one go round-robin.
func TestInstancesBySession(t *testing.T) {
	at := func(session string, n int) int {
		h := fnv.New64a()
		h.Write([]byte(session))
		return int(h.Sum64()%uint64(n)) + 1
	}
	var other string
	for _, s := range []string{"t", "u", "v", "w", "x"} {
		if at(s, 4) != at("s", 4) {
			other = s
			break
		}
	}
	require.NotEmpty(t, other)

	log := "t,tenant,session,prompt_tokens,output_tokens\n0,A,s,120,4\n0.5,X,,10,1\n1,B,s,125,4\n"
	res, pairs, _ := withFiles(t, log, instances(4))
	v := res.Vulnerable
	require.Equal(t, 1, v.Leaked, "A and B share session s, and so an instance")
	assert.Equal(t, at("s", 4), v.FirstLeak.Instance)
	assert.Equal(t, []int{at("s", 4)}, v.Pairs[0].Instances)
	assert.True(t, strings.HasSuffix(pairs, ","+string(rune('0'+at("s", 4)))+"\r\n"), pairs)
	assert.Contains(t, strings.Join(res.Notes, "\n"), "except the 2 requests that name a session, which a hash of the session keeps on one instance")

	res = run(t, strings.Replace(log, "1,B,s,", "1,B,"+other+",", 1), instances(4))
	assert.Zero(t, res.Vulnerable.Leaked, "B's session is on another instance")

	// JSONL names it too, as text or a number.
	res = run(t, `{"t": 0, "tenant": "A", "session": 7, "prompt_tokens": 120, "output_tokens": 4}
{"t": 1, "tenant": "B", "session": "7", "prompt_tokens": 125, "output_tokens": 4}
`, instances(3))
	assert.Equal(t, 1, res.Vulnerable.Leaked)
	assert.Equal(t, at("7", 3), res.Vulnerable.FirstLeak.Instance)
}

// Each instance has its own pools: two 8-page reservations at once wait
// for each other in one decode pool of 9 pages, not in two.
func TestInstancesHaveTheirOwnPools(t *testing.T) {
	log := "t,tenant,prompt_tokens,output_tokens\n0,A,120,100\n0,B,120,100\n"
	assert.Positive(t, run(t, log, instances(1)).Vulnerable.LongestWait)
	assert.Zero(t, run(t, log, instances(2)).Vulnerable.LongestWait)
}

// One instance is the replay as it was; out of range is refused.
func TestInstancesBounds(t *testing.T) {
	assert.Equal(t, run(t, handMadeLog, instances(0)).Vulnerable.Pairs, run(t, handMadeLog, instances(1)).Vulnerable.Pairs)
	assert.Equal(t, 1, run(t, handMadeLog, instances(0)).Instances)
	for _, n := range []int{-1, MaxInstances + 1} {
		_, err := Run(strings.NewReader(handMadeLog), instances(n))
		assert.ErrorContains(t, err, "must be between 1 and 1,000", n)
	}
}

// A session is text or a number, and printable.
func TestSessionRefused(t *testing.T) {
	for _, c := range []struct{ line, msg string }{
		{`{"t": 1, "session": [1], "prompt_tokens": 1, "output_tokens": 1}`, `line 2: session: "[1]" is neither text in quotes nor a number`},
		{`{"t": 1, "session": "` + strings.Repeat("s", MaxSessionLen+1) + `", "prompt_tokens": 1, "output_tokens": 1}`, "at most 128 allowed"},
		{`{"t": 1, "session": "a\u0007", "prompt_tokens": 1, "output_tokens": 1}`, "control or invisible character"},
	} {
		rd, _ := readAll(t, `{"t": 0, "prompt_tokens": 1, "output_tokens": 1}`+"\n"+c.line+"\n", Tenancy{})
		require.Equal(t, 1, rd.Skipped().Count, c.line)
		assert.Contains(t, rd.Skipped().First[0].Error(), c.msg)
	}
	_, got := readAll(t, `{"t": 0, "session": null, "prompt_tokens": 1, "output_tokens": 1}`+"\n", Tenancy{})
	assert.Empty(t, got[0].Session, "null is none")
}
