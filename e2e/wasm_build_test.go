package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/testskip"
	"kvleak/internal/wasmbin"
)

// Both sites serve a wasm whose data cmd/wasmmerge joined: Go's linker
// writes tens of thousands of segments, whose headers brotli packs badly
// (internal/wasmdata). The browser tests run these wasms, so the
// merged data is the data the page starts with.
func TestTheSitesWasmsHaveTheirDataMerged(t *testing.T) {
	t.Parallel()
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

// wasmShare bounds the shipped wasm's brotli as a ratchet: a change that
// adds bytes fails here before the bench sees it. It is set to what the
// last stop measured (docs/performance.md, "the bytes, issue 51's ceiling
// met"): 1,251,377 B on the round's merged tree (1,254,424 B on the branch
// that won the bytes back), under this round's ceiling of 1,280,000 B
// (issue 51) once the sorts instantiated per type and most of go-app's
// single-use element types were removed; raised by 3,000 B for the scrub at
// launch scale (issue 49, docs/performance.md: its held words and names, its
// kept class attributes, prefill's map drawn over the last one), 1,254,841 B
// measured; lowered to 1,254,268 B measured once a drag's names moved into
// the model and a patch's classes went to the page in one call (issue 49's
// last point). Raised to 1,255,100 for go-app's listeners that ran a
// stale closure (patches/goapp/latest-handler.patch, a bug fix): 1,255,052 B
// measured; the patch's own code is a few dozen raw bytes, the rest is
// brotli's layout moving (without the patch the same tree measured
// 1,256,053 B). Lowered to 1,253,800: 1,253,738 B measured with the
// grid's marks held during a drag (issue 49); the same change with the
// field tagged omitempty measured 1,256,463 B, brotli's layout again.
// Raised to 1,255,200 when the model's separate held flag went (the grid's
// own Held is the one state): 1,255,181 B measured, the raw wasm 35 B
// smaller, brotli's layout once more. Raised to 1,255,300 for a pool map's
// runs filled by copies (issue 49: drawing decode's map at launch scale
// 1.1 → 0.5 ms): 1,255,232 B measured. Raised to 1,256,100 for the
// pipeline stages' word breaks in one pass (a launch-scale scrubber move
// renders 7–8 stages: their render 0.7 → 0.1 ms in a V8 profile): 1,256,085 B
// measured, the raw wasm 151 B smaller than before it, brotli's layout.
// Lowered to 1,250,000 when the colour scheme's one media list served the
// change listener too: 1,249,474 B measured, the raw wasm 10 B larger,
// brotli's layout the other way.
// Lower this bound as bytes are won back;
// never raise it without saying why there, nor above the ceiling.
const wasmShare = 1_250_000

// The shipped wasm's brotli fits its share, as the data merge and inlining
// off outside the runtime (Makefile: WASM_GCFLAGS) made it: a change that
// adds back more than the headroom fails here before the bench sees it
// (docs/performance.md has the figures).
func TestTheShippedWasmFitsItsShareOfTheFirstVisit(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	flags, err := os.ReadFile(filepath.Join(root, "build", "site-flags"))
	require.NoError(t, err, "make site first")
	if !strings.Contains(string(flags), "-br-large-q 11") {
		testskip.Skip(t, fmt.Sprintf("build/site was compressed with %q; the budget is for brotli 11 (make site)", strings.TrimSpace(string(flags))))
	}
	info, err := os.Stat(filepath.Join(root, "build", "site", "web", "app.wasm.br"))
	require.NoError(t, err)
	assert.LessOrEqual(t, info.Size(), int64(wasmShare), "app.wasm.br is %d bytes", info.Size())
}
