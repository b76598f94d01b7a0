package model

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/deploycheck"
)

// fixture reads a deployment fixture's text (deploycheck/testdata).
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../deploycheck/testdata/" + name)
	require.NoError(t, err)
	return string(b)
}

// The replay link opens the same run the check built: its config
// (decode's pool included, as dpool) and its requests.
func TestDeployLinkDecodesToTheReplay(t *testing.T) {
	for _, dir := range []string{"glm-launch", "glm-remediated", "symmetric", "v0.5.21-mooncake", "v0.5.21-mori", "minimal"} {
		t.Run(dir, func(t *testing.T) {
			p, err := deploycheck.Parse(fixture(t, dir+"/prefill.json"))
			require.NoError(t, err)
			d, err := deploycheck.Parse(fixture(t, dir+"/decode.json"))
			require.NoError(t, err)
			raw, err := DeployLink(p, d)
			require.NoError(t, err)
			v, err := deploycheck.Check(p, d)
			require.NoError(t, err)
			r, err := v.Replay()
			require.NoError(t, err)

			assert.Contains(t, raw, "&dpool="+strconv.Itoa(d.PoolTokens)+"&", "decode's pool is in the link")
			st, err := DecodeLink(raw)
			require.NoError(t, err, raw)
			assert.Equal(t, r.Config, st.Config)
			assert.Equal(t, r.Ops, st.Ops)
			assert.Empty(t, st.Migrated)
			last := st.Ops[len(st.Ops)-1].Send
			assert.Equal(t, r.Prompt, last.PromptTokens)
			assert.Equal(t, v.Window.Open(), v.Window.Contains(last.PromptTokens), "in the window when it is open")
		})
	}
}

// Only numbers leave the boxes: nothing of the pasted text is in the link.
func TestDeployLinkCarriesNoPastedText(t *testing.T) {
	view := CheckDeployment(fixture(t, "launch-command/prefill.sh"), fixture(t, "launch-command/decode.sh"))
	require.NotEmpty(t, view.Link)
	for _, pasted := range []string{"GLM", "zai-org", "mlx5", "docker", "lmsysorg", "mooncake", "0.5.20", "30000"} {
		assert.NotContains(t, view.Link, pasted)
	}
}

func TestCheckDeployment(t *testing.T) {
	view := CheckDeployment(fixture(t, "glm-launch/prefill.json"), fixture(t, "glm-launch/decode.json"))
	assert.Equal(t, deploycheck.Exposed, view.Status)
	assert.True(t, strings.HasPrefix(view.Lines[0], "EXPOSED: prompts of 681,274–1,048,569 tokens"))
	assert.Empty(t, view.Box)
	assert.True(t, strings.HasPrefix(view.Link, "v=3&ctx=1048576&pool=681280&dpool=1048576&page=1&mode=vulnerable&"), view.Link)
	assert.Equal(t, "your pools and page size, tenant A's secret, then one prompt inside the window (1,048,569 tokens).", view.LinkNote)

	view = CheckDeployment(fixture(t, "glm-launch/prefill.json"), fixture(t, "glm-launch/prefill.json"))
	assert.Empty(t, view.Status)
	assert.Equal(t, "decode", view.Box)
	assert.Equal(t, []string{`the decode server: this is a prefill server (its disaggregation_mode is "prefill"): paste it in the prefill box`}, view.Lines)
	assert.Equal(t, `this is a prefill server (its disaggregation_mode is "prefill"): paste it in the prefill box`, view.Problem)
	assert.Empty(t, view.Link)

	view = CheckDeployment(`{"version": "0.5.20", "context_length": 16777216, "page_size": 1, "disaggregation_mode": "prefill", "max_total_num_tokens": 4194304}`,
		`{"version": "0.5.20", "context_length": 16777216, "page_size": 1, "disaggregation_mode": "decode", "max_total_num_tokens": 4194304}`)
	assert.Equal(t, deploycheck.NotExposed, view.Status)
	assert.Empty(t, view.Link)
	assert.Equal(t, "No replay: the pair is too large to replay in the playground: decode pool size 4,194,304: the two pools hold 8,388,608 pages together; at most 4,194,304.", view.LinkNote)
}
