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
	for _, dir := range []string{"glm-launch", "glm-remediated", "symmetric", "v0.5.21-mooncake", "v0.5.21-mori", "minimal", "dev-build"} {
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
	assert.True(t, strings.HasPrefix(view.Link, "v=4&ctx=1048576&pool=681280&dpool=1048576&page=1&reserve="), view.Link)
	// The longest prompt decode attends over: its pool less the 512 it reserves.
	assert.Equal(t, "your pools and page size, tenant A's secret, then one prompt inside the window (1,048,064 tokens).", view.LinkNote)

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

// The panel's lines carry issue 42's information: both limits when the
// server's reported max_req_input_len differs from the rule, a development
// build as an unknown release, a Kubernetes list read as a launch.
func TestCheckDeploymentRoundThree(t *testing.T) {
	view := CheckDeployment(fixture(t, "hybrid-swa/prefill.json"), fixture(t, "hybrid-swa/decode.json"))
	assert.Equal(t, deploycheck.Exposed, view.Status)
	assert.Equal(t, "prefill: max_req_input_len 99,994 as the server reports it (max_token_pool_size 100,000); the rule on max_total_num_tokens would give 19,994 = min(context 131,072 − 1, pool 20,000 − 1) − 5; 0.5.20 (mooncake) predates the fix in 0.5.21", view.Lines[1])
	assert.Contains(t, view.Link, "&pool=100000&dpool=131072&", "the replay runs the reported limits' pools")
	assert.Contains(t, view.LinkNote, "the replay's prefill pool is 100,000 tokens")

	view = CheckDeployment(fixture(t, "dev-build/prefill.json"), fixture(t, "dev-build/decode.json"))
	assert.Contains(t, view.Lines[0], "0.0.0.dev1+g87549f8f0 (mooncake) is a development build that names no release, commit 87549f8f0: whether it carries the fix in 0.5.21 is unknown")
	assert.NotContains(t, strings.Join(view.Lines, "\n"), "predates")
	assert.NotContains(t, view.Link, "87549f8f0", "only numbers leave")

	view = CheckDeployment(fixture(t, "k8s-args/prefill.yaml"), fixture(t, "k8s-args/decode.json"))
	assert.Equal(t, deploycheck.Exposed, view.Status)
	assert.NotContains(t, view.Link, "GLM")

	view = CheckDeployment(`["--max-total-tokens", "681280"`, fixture(t, "k8s-args/decode.json"))
	assert.Empty(t, view.Status)
	assert.Equal(t, "prefill", view.Box)
	assert.Equal(t, "the list: the [ on line 1 is not closed by a ]", view.Problem)
}
