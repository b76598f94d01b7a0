package deploycheck_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/deploycheck"
	"kvleak/permalink"
)

// fixture reads a deployment fixture's text (testdata).
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	return string(b)
}

// The report's link opens the same run the check built: its config
// (decode's pool included, as dpool) and its requests.
func TestReportLinkDecodesToTheReplay(t *testing.T) {
	for _, dir := range []string{"glm-launch", "glm-remediated", "symmetric", "v0.5.21-mooncake", "v0.5.21-mori", "minimal", "dev-build"} {
		t.Run(dir, func(t *testing.T) {
			prefill, decode := fixture(t, dir+"/prefill.json"), fixture(t, dir+"/decode.json")
			d, err := deploycheck.Parse(decode)
			require.NoError(t, err)
			raw := deploycheck.CheckReport(prefill, decode).Link
			v, err := deploycheck.CheckText(prefill, decode)
			require.NoError(t, err)
			r, err := v.Replay()
			require.NoError(t, err)

			assert.Contains(t, raw, "&dpool="+strconv.Itoa(d.PoolTokens)+"&", "decode's pool is in the link")
			st, err := permalink.DecodeLink(raw, nil)
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
func TestReportLinkCarriesNoPastedText(t *testing.T) {
	report := deploycheck.CheckReport(fixture(t, "launch-command/prefill.sh"), fixture(t, "launch-command/decode.sh"))
	require.NotEmpty(t, report.Link)
	for _, pasted := range []string{"GLM", "zai-org", "mlx5", "docker", "lmsysorg", "mooncake", "0.5.20", "30000"} {
		assert.NotContains(t, report.Link, pasted)
	}
}

func TestCheckReport(t *testing.T) {
	report := deploycheck.CheckReport(fixture(t, "glm-launch/prefill.json"), fixture(t, "glm-launch/decode.json"))
	assert.Equal(t, deploycheck.Exposed, report.Status)
	assert.True(t, strings.HasPrefix(report.Lines[0], "EXPOSED: prompts of 681,274–1,048,569 tokens"))
	assert.Empty(t, report.Box)
	assert.True(t, strings.HasPrefix(report.Link, "v=4&ctx=1048576&pool=681280&dpool=1048576&page=1&reserve="), report.Link)
	// The longest prompt decode attends over: its pool less the 512 it reserves.
	assert.Equal(t, "your pools and page size, tenant A's secret, then one prompt inside the window (1,048,064 tokens).", report.LinkNote)

	report = deploycheck.CheckReport(fixture(t, "glm-launch/prefill.json"), fixture(t, "glm-launch/prefill.json"))
	assert.Empty(t, report.Status)
	assert.Equal(t, "decode", report.Box)
	assert.Equal(t, []string{`the decode server: this is a prefill server (its disaggregation_mode is "prefill"): paste it in the prefill box`}, report.Lines)
	assert.Equal(t, `this is a prefill server (its disaggregation_mode is "prefill"): paste it in the prefill box`, report.Problem)
	assert.Empty(t, report.Link)

	report = deploycheck.CheckReport(`{"version": "0.5.20", "context_length": 16777216, "page_size": 1, "disaggregation_mode": "prefill", "max_total_num_tokens": 4194304}`,
		`{"version": "0.5.20", "context_length": 16777216, "page_size": 1, "disaggregation_mode": "decode", "max_total_num_tokens": 4194304}`)
	assert.Equal(t, deploycheck.NotExposed, report.Status)
	assert.Empty(t, report.Link)
	assert.Equal(t, "No replay: the pair is too large to replay in the playground: decode pool size 4,194,304: the two pools hold 8,388,608 pages together; at most 4,194,304.", report.LinkNote)
}

// The panel's lines carry issue 42's information: both limits when the
// server's reported max_req_input_len differs from the rule, a development
// build as an unknown release, a Kubernetes list read as a launch.
func TestCheckReportRoundThree(t *testing.T) {
	report := deploycheck.CheckReport(fixture(t, "hybrid-swa/prefill.json"), fixture(t, "hybrid-swa/decode.json"))
	assert.Equal(t, deploycheck.Exposed, report.Status)
	assert.Equal(t, "prefill: max_req_input_len 99,994 as the server reports it (max_token_pool_size 100,000); the rule on max_total_num_tokens would give 19,994 = min(context 131,072 − 1, pool 20,000 − 1) − 5; 0.5.20 (mooncake) predates the fix in 0.5.21", report.Lines[1])
	assert.Contains(t, report.Link, "&pool=100000&dpool=131072&", "the replay runs the reported limits' pools")
	assert.Contains(t, report.LinkNote, "the replay's prefill pool is 100,000 tokens")

	report = deploycheck.CheckReport(fixture(t, "dev-build/prefill.json"), fixture(t, "dev-build/decode.json"))
	assert.Contains(t, report.Lines[0], "0.0.0.dev1+g87549f8f0 (mooncake) is a development build that names no release, commit 87549f8f0: whether it carries the fix in 0.5.21 is unknown")
	assert.NotContains(t, strings.Join(report.Lines, "\n"), "predates")
	assert.NotContains(t, report.Link, "87549f8f0", "only numbers leave")

	report = deploycheck.CheckReport(fixture(t, "k8s-args/prefill.yaml"), fixture(t, "k8s-args/decode.json"))
	assert.Equal(t, deploycheck.Exposed, report.Status)
	assert.NotContains(t, report.Link, "GLM")

	report = deploycheck.CheckReport(`["--max-total-tokens", "681280"`, fixture(t, "k8s-args/decode.json"))
	assert.Empty(t, report.Status)
	assert.Equal(t, "prefill", report.Box)
	assert.Equal(t, "the list: the [ on line 1 is not closed by a ]", report.Problem)
}
