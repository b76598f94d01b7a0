package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestCheck and TestHelp")

// fixtures is deploycheck's folder of what SGLang servers report.
const fixtures = "../../deploycheck/testdata/"

// kvleak check on each fixture pair, and on bad input: what it prints
// (testdata/check/*.golden: stdout, or stderr when it fails) and its exit
// status. go test ./cmd/kvleak -run TestCheck -update rewrites the files.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	pair := func(folder string) []string {
		ext := ".json"
		if folder == "launch-command" {
			ext = ".sh"
		}
		return []string{"check", "-prefill", fixtures + folder + "/prefill" + ext, "-decode", fixtures + folder + "/decode" + ext}
	}
	launch := fixtures + "glm-launch/"
	for _, c := range []struct {
		golden string
		args   []string
		exit   int
	}{
		{"glm-launch", pair("glm-launch"), 1},
		{"glm-remediated", pair("glm-remediated"), 0},
		{"symmetric", pair("symmetric"), 0},
		{"v0.5.21-mooncake", pair("v0.5.21-mooncake"), 0},
		{"v0.5.21-mori", pair("v0.5.21-mori"), 1},
		{"launch-command", pair("launch-command"), 1},
		{"minimal", pair("minimal"), 1},
		{"json-and-command", []string{"check", "-prefill", launch + "prefill.json", "-decode", fixtures + "launch-command/decode.sh"}, 1},
		{"flags-with-equals", []string{"check", "-decode=" + launch + "decode.json", "--prefill=" + launch + "prefill.json"}, 1},
		{"bad-no-file", []string{"check", "-prefill", filepath.Join(dir, "missing.json"), "-decode", launch + "decode.json"}, 2},
		{"bad-not-json", []string{"check", "-prefill", launch + "prefill.json", "-decode", write("truncated.json", `{"version": "0.5.20", "max_total`)}, 2},
		{"bad-other-shape", []string{"check", "-prefill", write("models.json", `{"object": "list", "data": [{"id": "glm"}]}`), "-decode", launch + "decode.json"}, 2},
		{"bad-non-numeric", []string{"check", "-prefill", write("string-pool.json", `{"version": "0.5.20", "context_length": 1048576, "page_size": 1, "disaggregation_mode": "prefill", "max_total_num_tokens": "681,280"}`), "-decode", launch + "decode.json"}, 2},
		{"bad-zero-page", []string{"check", "-prefill", write("zero-page.json", `{"version": "0.5.20", "context_length": 1048576, "page_size": 0, "disaggregation_mode": "prefill", "max_total_num_tokens": 681280}`), "-decode", launch + "decode.json"}, 2},
		{"bad-absurd-pool", []string{"check", "-prefill", launch + "prefill.json", "-decode", write("huge.json", `{"version": "0.5.20", "context_length": 1048576, "page_size": 1, "disaggregation_mode": "decode", "max_total_num_tokens": 1000000000000}`)}, 2},
		{"bad-megabyte", []string{"check", "-prefill", write("big.json", "{"+strings.Repeat(" ", 1<<20)+"}"), "-decode", launch + "decode.json"}, 2},
		{"bad-prefill-in-decode-box", []string{"check", "-prefill", launch + "prefill.json", "-decode", launch + "prefill.json"}, 2},
		{"bad-swapped", []string{"check", "-prefill", launch + "decode.json", "-decode", launch + "prefill.json"}, 2},
		{"bad-not-pd", []string{"check", "-prefill", fixtures + "plain/server.json", "-decode", launch + "decode.json"}, 2},
		{"bad-unknown-version", []string{"check", "-prefill", write("version.json", `{"version": "nightly", "context_length": 1048576, "page_size": 1, "disaggregation_mode": "prefill", "max_total_num_tokens": 681280}`), "-decode", launch + "decode.json"}, 2},
		{"bad-command-without-pool", []string{"check", "-prefill", write("cmd.sh", "python -m sglang.launch_server --context-length 1M --disaggregation-mode prefill"), "-decode", launch + "decode.json"}, 2},
		// issue 42: /server_info of a development build, reported limits
		// over the rule, Kubernetes lists, contexts taken from the peer.
		{"dev-build", pair("dev-build"), 1},
		{"hybrid-swa", pair("hybrid-swa"), 1},
		{"k8s-args", []string{"check", "-prefill", fixtures + "k8s-args/prefill.yaml", "-decode", fixtures + "k8s-args/decode.json"}, 1},
		{"command-without-context", []string{"check", "-prefill", write("noctx.sh", "sglang serve --max-total-tokens 681280 --disaggregation-mode prefill"), "-decode", launch + "decode.json"}, 1},
		{"bad-no-context-anywhere", []string{"check", "-prefill", fixtures + "dev-build/prefill.json", "-decode", write("noctx-decode.sh", "sglang serve --max-total-tokens 1048576 --disaggregation-mode decode")}, 2},
		{"bad-k8s-list", []string{"check", "-prefill", write("args.json", `["--max-total-tokens", "681280", "--disaggregation-mode" "prefill"]`), "-decode", launch + "decode.json"}, 2},
	} {
		t.Run(c.golden, func(t *testing.T) {
			var out, errOut bytes.Buffer
			exit := run(c.args, &out, &errOut)
			assert.Equal(t, c.exit, exit, "exit status; stderr: %s", errOut.String())
			got := out.String()
			if exit == 2 {
				assert.Empty(t, got, "bad input prints no verdict")
				got = strings.ReplaceAll(errOut.String(), dir+string(filepath.Separator), "$TMP/")
			} else {
				assert.Empty(t, errOut.String())
			}
			assertGolden(t, filepath.Join("testdata", "check", c.golden+".golden"), got)
		})
	}
}

// The built command exits with run's status.
func TestCheckExitStatusOfTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "kvleak")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	for folder, want := range map[string]int{"glm-launch": 1, "glm-remediated": 0, "v0.5.21-mooncake": 0} {
		cmd := exec.Command(bin, "check", "-prefill", fixtures+folder+"/prefill.json", "-decode", fixtures+folder+"/decode.json")
		out, _ := cmd.Output()
		assert.Equal(t, want, cmd.ProcessState.ExitCode(), folder)
		golden, err := os.ReadFile(filepath.Join("testdata", "check", folder+".golden"))
		require.NoError(t, err)
		assert.Equal(t, string(golden), string(out))
	}
	cmd := exec.Command(bin, "check", "-prefill", "nope.json", "-decode", "nope.json")
	require.Error(t, cmd.Run())
	assert.Equal(t, 2, cmd.ProcessState.ExitCode())
}
