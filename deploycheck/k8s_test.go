package deploycheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Kubernetes argument lists as manifests write them: the container's
// command with its args appended, its image for the release.
func TestParseK8s(t *testing.T) {
	glm := Server{Source: FromLaunch, names: launchNames, Mode: ModePrefill, Backend: "mooncake", BackendAssumed: true,
		ContextTokens: 1_048_576, PoolTokens: 681_280, PageTokens: 1, PageAssumed: true, PoolIsCap: true}
	withVersion := glm
	withVersion.Version, withVersion.VersionFrom = "0.5.20", "the image tag lmsysorg/sglang:v0.5.20-cu129"
	argsOnly := glm
	argsOnly.LauncherAssumed = true
	for _, c := range []struct {
		name, text string
		want       Server
	}{
		{"a JSON list, launcher first", `["python3", "-m", "sglang.launch_server", "--context-length", "1048576", "--max-total-tokens", "681280", "--disaggregation-mode", "prefill"]`, glm},
		{"a JSON list of args alone", `["--model-path", "zai-org/GLM-5.3", "--context-length=1M", "--max-total-tokens", "681280", "--disaggregation-mode", "prefill"]`, argsOnly},
		{"a YAML flow list, single quotes and numbers", `args: ['--context-length', 1048576, '--max-total-tokens', "681280", --disaggregation-mode, prefill,]`, argsOnly},
		{"YAML block lists with the image", `
containers:
- name: sglang
  image: "lmsysorg/sglang:v0.5.20-cu129"   # pinned
  command:
  - python3
  - -m
  - sglang.launch_server
  args:
  - --context-length
  - "1048576"
  - --max-total-tokens
  - '681280'
  - --disaggregation-mode
  - prefill  # the half
- name: metrics
  image: prom/node-exporter
  args: ["--web.listen-address=:9100"]
`, withVersion},
		{"a shell line in a | block", `
      image: lmsysorg/sglang:v0.5.20-cu129
      command: ["/bin/sh", "-c"]
      args:
        - |
          pip list | grep sglang
          python3 -m sglang.launch_server \
            --context-length 1048576 \
            --max-total-tokens 681280 \
            --disaggregation-mode prefill
`, withVersion},
		{"kubectl's JSON", `{"spec": {"containers": [{"name": "sglang", "image": "lmsysorg/sglang:v0.5.20-cu129",
			"command": ["python3", "-m", "sglang.launch_server"],
			"args": ["--context-length", "1048576", "--max-total-tokens", "681280", "--disaggregation-mode", "prefill"]}]}}`, withVersion},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse(c.text)
			require.NoError(t, err)
			assert.Equal(t, c.want, s)
		})
	}
}

// A server-info JSON is not taken for a spec, nor a launch command line.
func TestK8sKeysOnlyWhereASpecHasThem(t *testing.T) {
	p, d := pair(t, "glm-launch")
	assert.False(t, hasK8sKeys(p))
	assert.False(t, hasK8sKeys(d))
	assert.False(t, hasK8sKeys("python -m sglang.launch_server --image x --args y"))
	assert.False(t, hasK8sKeys("image: lmsysorg/sglang:v0.5.21"), "an image alone launches nothing")
	assert.True(t, hasK8sKeys("  - args: [a]"))
	assert.True(t, hasK8sKeys(`{"command":["a"]}`))
}
