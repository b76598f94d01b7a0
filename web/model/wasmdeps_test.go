package model

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The exposition's parser is a test-only dependency: the wasm the site
// ships must not link it (nor protobuf, which it brings).
func TestWasmDoesNotLinkPrometheus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", "kvleak/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	deps := string(out)
	require.Contains(t, deps, "kvleak/web/model\n", "the list is the wasm's")
	for _, banned := range []string{"github.com/prometheus/", "google.golang.org/protobuf"} {
		assert.NotContains(t, deps, banned)
	}
	assert.Greater(t, strings.Count(deps, "\n"), 50)
}
