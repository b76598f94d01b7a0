package deploycheck

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// The settings a log is replayed at are the link's run's: GLM-5.3's
// pools, context and page size; a pair whose halves differ says how.
func TestSettingsOfAPair(t *testing.T) {
	v, err := CheckText(pair(t, "glm-launch"))
	require.NoError(t, err)
	st, err := v.Settings()
	require.NoError(t, err)
	c := st.Config
	assert.Equal(t, []int{1_048_576, 681_280, 1_048_576, 1}, []int{c.ContextTokens, c.PoolTokens, c.DecodePoolTokens, c.PageTokens})
	assert.Empty(t, st.Notes)
	r, err := v.Replay()
	require.NoError(t, err)
	assert.Equal(t, st.Config, r.Config)

	v, err = CheckText(pair(t, "hybrid-swa"))
	require.NoError(t, err)
	st, err = v.Settings()
	require.NoError(t, err)
	assert.Contains(t, strings.Join(st.Notes, "; "), "as its reported max_req_input_len gives it")
}

// num_reserved_decode_tokens is read where the server says it, and is
// SGLang's default, 512, where it does not.
func TestReservedDecodeTokens(t *testing.T) {
	_, decode := pair(t, "glm-launch")
	s, err := Parse(decode)
	require.NoError(t, err)
	assert.True(t, s.ReservedSaid)
	assert.Equal(t, 512, s.ReservedDecode())

	s, err = Parse(minimal("decode", map[string]any{"num_reserved_decode_tokens": 256}))
	require.NoError(t, err)
	assert.Equal(t, 256, s.ReservedDecode())
	s, err = Parse(minimal("decode", nil))
	require.NoError(t, err)
	assert.False(t, s.ReservedSaid)
	assert.Equal(t, DefaultReservedDecodeTokens, s.ReservedDecode())

	launch := "python -m sglang.launch_server --model-path m --disaggregation-mode decode --max-total-tokens 1048576 --context-length 1048576"
	s, err = Parse(launch + " --num-reserved-decode-tokens 1024")
	require.NoError(t, err)
	assert.Equal(t, 1024, s.ReservedDecode())
	s, err = Parse(launch)
	require.NoError(t, err)
	assert.Equal(t, 512, s.ReservedDecode())

	_, err = Parse(launch + " --num-reserved-decode-tokens lots")
	assert.EqualError(t, err, `--num-reserved-decode-tokens "lots": must be a whole number of tokens`)
	_, err = Parse(minimal("decode", map[string]any{"num_reserved_decode_tokens": -1}))
	assert.EqualError(t, err, "num_reserved_decode_tokens -1: must be between 0 and "+engine.Thousands(engine.MaxContextTokens)+" tokens")
}
