package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/wasmbin"
)

// Both sites serve a wasm whose data cmd/wasmmerge joined: Go's linker
// writes tens of thousands of segments, and brotli ships their headers at
// ~93 KB (internal/wasmdata). The browser tests run these wasms, so the
// merged data is the data the page starts with.
func TestTheSitesWasmsHaveTheirDataMerged(t *testing.T) {
	root := repoRoot(t)
	for _, site := range []string{"site", "site-testhooks"} {
		b, err := os.ReadFile(filepath.Join(root, "build", site, "web", "app.wasm"))
		require.NoError(t, err, "make site build/site-testhooks/index.html first")
		sections, err := wasmbin.Sections(b)
		require.NoError(t, err)
		segments := -1
		for _, s := range sections {
			if s.ID == 11 { // data
				segments = (&wasmbin.Reader{B: s.Payload}).Count()
			}
		}
		assert.Positive(t, segments, "%s: no data section", site)
		assert.LessOrEqual(t, segments, 16, "%s: %d data segments: not merged", site, segments)
	}
}
