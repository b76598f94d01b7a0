package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deployFixture reads what an SGLang server reports, from deploycheck's
// fixtures.
func deployFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "deploycheck", "testdata", name))
	require.NoError(t, err)
	return string(b)
}

// pasteDeploy puts text in each box as a paste does (an input event),
// presses Check and waits until the answer is on screen: a new one, as
// each check here answers differently from the one before it.
func pasteDeploy(b *browser, prefill, decode string) {
	b.t.Helper()
	before := textOf(b, "#deploy-verdict")
	setValueOnly(b, "#deploy-prefill", prefill)
	setValueOnly(b, "#deploy-decode", decode)
	clickSel(b, "#deploy-check")
	waitFor(b, "the deployment's verdict", fmt.Sprintf(`(t => t !== "" && t !== %s)(document.querySelector("#deploy-verdict").textContent.trim())`, jsLit(before)))
}

// The reader pastes GLM-5.3's two servers as they answer GET
// /get_server_info, reads the verdict, and follows the replay link to the
// leak, with nothing pasted in the address bar.
func TestDeployCheckReplaysTheLeak(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	assert.Equal(t, "status", evalJS[string](b, `document.querySelector("#deploy-verdict").getAttribute("role")`))
	assert.Equal(t, "polite", evalJS[string](b, `document.querySelector("#deploy-verdict").getAttribute("aria-live")`))
	assert.Contains(t, textOf(b, "#deploy-private"), "Nothing you paste leaves this page")

	pasteDeploy(b, deployFixture(t, "glm-launch/prefill.json"), deployFixture(t, "glm-launch/decode.json"))
	headline := textOf(b, "#deploy-verdict [data-status]")
	assert.Equal(t, "EXPOSED: prompts of 681,274–1,048,569 tokens pass decode's door and take prefill's placeholder path; 0.5.20 (mooncake) predates the fix in 0.5.21", headline)
	lines := textOf(b, "#deploy-verdict .deploy-lines")
	assert.Contains(t, lines, "max_req_input_len 681,274")
	assert.Contains(t, lines, "max_req_input_len 1,048,570")
	assert.Contains(t, lines, "refuses prompts of 1,048,576 tokens or more")

	href := evalJS[string](b, `document.querySelector("#deploy-replay").getAttribute("href")`)
	assert.Contains(t, href, "pool=681280&dpool=1048576&page=1&reserve=")
	for _, pasted := range []string{"GLM", "zai-org", "mlx5", "0.5.20", "mooncake"} {
		assert.NotContains(t, href, pasted, "the link carries only numbers")
	}

	clickSel(b, "#deploy-replay")
	waitFor(b, "the replay's leak", `(document.querySelector("#verdict") || {}).textContent?.startsWith("LEAK:")`)
	waitLate(b)
	assert.Equal(t, "200", textOf(b, "#status"))
	assert.Contains(t, textOf(b, "#verdict"), "tenant A")
	assert.Contains(t, textOf(b, "#verdict"), "tenant B")
	assert.Contains(t, textOf(b, "#response"), "tenant-A:PROJECT_ZEPHYR_Q4_FORECAST")
	assert.Equal(t, "681,280", valueOf(b, "#pool"))
	assert.Equal(t, "1,048,576", valueOf(b, "#decode-pool"))
	search := evalJS[string](b, `location.search`)
	assert.Contains(t, search, "dpool=1048576")
	assert.NotContains(t, search, "zai-org")
}

// The launch-command form, and the other fixtures' verdicts, in the page.
func TestDeployCheckVerdicts(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	for dir, want := range map[string]string{
		"launch-command":   "EXPOSED: prompts of 681,274–1,048,569 tokens",
		"glm-remediated":   "NOT EXPOSED: the window is closed",
		"v0.5.21-mooncake": "PATCHED: the window is open but 0.5.21 retires the rejection at the door",
		"v0.5.21-mori":     "EXPOSED: prompts of 681,274–1,048,569 tokens pass decode's door and take prefill's placeholder path; 0.5.21 (mori) predates the fix in 0.5.22",
		"hybrid-swa":       "EXPOSED: prompts of 99,994–131,065 tokens",
		"dev-build":        "EXPOSED: prompts of 681,274–1,048,569 tokens pass decode's door and take prefill's placeholder path; 0.0.0.dev1+g87549f8f0 (mooncake) is a development build that names no release",
	} {
		t.Run(dir, func(t *testing.T) {
			withT(b, t)
			ext := ".json"
			if dir == "launch-command" {
				ext = ".sh"
			}
			pasteDeploy(b, deployFixture(t, dir+"/prefill"+ext), deployFixture(t, dir+"/decode"+ext))
			assert.True(t, strings.HasPrefix(textOf(b, "#deploy-verdict [data-status]"), want), textOf(b, "#deploy-verdict"))
			if dir == "hybrid-swa" {
				assert.Contains(t, textOf(b, "#deploy-verdict .deploy-lines"), "max_req_input_len 99,994 as the server reports it (max_token_pool_size 100,000); the rule on max_total_num_tokens would give 19,994", "both figures")
			}
		})
	}
}

// Bad input says what is wrong with which box, as text, and changes
// nothing of the run on screen.
func TestDeployCheckRefusesBadInput(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	before := readState(b)
	search := evalJS[string](b, `location.search`)
	prefill := deployFixture(t, "glm-launch/prefill.json")
	for _, c := range []struct {
		name, prefill, decode, msg, invalid string
	}{
		{"a prefill server in the decode box", prefill, prefill, `the decode server: this is a prefill server (its disaggregation_mode is "prefill"): paste it in the prefill box`, "#deploy-decode"},
		{"not JSON", `{"version": "0.5.20",`, prefill, "the prefill server: the text starts with { but is not JSON", "#deploy-prefill"},
		{"a server not in PD mode", deployFixture(t, "plain/server.json"), prefill, "not a prefill/decode server", "#deploy-prefill"},
		{"markup is text", `<img src=x onerror="window.pwned=1">`, prefill, "the prefill server: the text is neither JSON nor an SGLang launch command", "#deploy-prefill"},
		{"a hostile version", strings.Replace(prefill, `"version":"0.5.20"`, `"version":"<b>x</b>"`, 1), prefill, `version "<b>x</b>": not an SGLang release`, "#deploy-prefill"},
		{"a megabyte", strings.Repeat("x", 1<<20), prefill, "the text is longer than 524,288 bytes", "#deploy-prefill"},
	} {
		t.Run(c.name, func(t *testing.T) {
			withT(b, t)
			pasteDeploy(b, c.prefill, c.decode)
			msg := textOf(b, "#deploy-verdict .field-error")
			assert.Contains(t, msg, c.msg)
			assert.Equal(t, "true", evalJS[string](b, fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-invalid")`, jsLit(c.invalid))))
			assert.Equal(t, 0, countAll(b, "#deploy-verdict b, #deploy-verdict img, #deploy-replay"), "no markup from the paste, no link")
			assert.False(t, evalJS[bool](b, `!!window.pwned`))
			assertUnchanged(t, b, before, "after "+c.name)
			assert.Equal(t, search, evalJS[string](b, `location.search`), "the address bar is untouched")
		})
	}
}

// The panel passes axe-core's WCAG rules with a verdict and with an error
// on screen (only its own elements are judged here; TestAccessibility
// judges the page).
func TestDeployCheckAccessibility(t *testing.T) {
	t.Parallel()
	src := axeSource(t)
	b := openPlayground(t)
	for name, boxes := range map[string][2]string{
		"verdict": {deployFixture(t, "glm-launch/prefill.json"), deployFixture(t, "glm-launch/decode.json")},
		"error":   {"{", deployFixture(t, "glm-launch/decode.json")},
	} {
		t.Run(name, func(t *testing.T) {
			withT(b, t)
			pasteDeploy(b, boxes[0], boxes[1])
			for _, v := range runAxe(b, src) {
				for _, n := range v.Nodes {
					assert.NotContains(t, n.Target, "deploy", "%s", v)
				}
			}
		})
	}
}
