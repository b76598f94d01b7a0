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
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "kvleak/web/model", "the list is the wasm's")
	var linked []string
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/prometheus/") || strings.HasPrefix(d, "google.golang.org/protobuf") {
			linked = append(linked, d)
		}
	}
	assert.Empty(t, linked, "the wasm links the test-only parser")
}
