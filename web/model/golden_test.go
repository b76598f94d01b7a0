package model

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden/*.txt from the model as it is")

// TestPresetViewsGolden pins what the page draws of every preset at every
// step — the pipeline, the pool panel (grid and map) and the prefill pool —
// scrubbing forward and then back, in the wide grid and the phone's. The
// digests were written by the engine as it was before its page table
// became runs: nothing visible may change with it.
func TestPresetViewsGolden(t *testing.T) {
	for _, p := range engine.Presets() {
		t.Run(p.Slug, func(t *testing.T) {
			s := NewSession()
			require.NoError(t, s.LoadPreset(p.Slug))
			var b strings.Builder
			n := s.Steps()
			steps := make([]int, 0, 2*n+2)
			for i := 1; i <= n; i++ {
				steps = append(steps, i)
			}
			for i := n; i >= 1; i-- {
				steps = append(steps, i)
			}
			for _, step := range steps {
				require.NoError(t, s.ScrubTo(step))
				fmt.Fprintf(&b, "step %d pipeline %x pool %x narrow %x prefill %x\n", step,
					viewHash(t, s.Pipeline()), viewHash(t, s.PoolPanel(MaxGridCells)), viewHash(t, s.PoolPanel(MaxGridCellsNarrow)), viewHash(t, s.PrefillPool()))
			}
			got := b.String()
			path := filepath.Join("testdata", "golden", p.Slug+".txt")
			if *updateGolden {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./web/model -run TestPresetViewsGolden -update-golden")
			require.Equal(t, string(want), got)
		})
	}
}

// viewHash hashes a view as JSON, leaving out what says how it was drawn
// rather than what it shows: the pool map's version and its changed pages.
func viewHash(t *testing.T, v any) [32]byte {
	t.Helper()
	switch pv := v.(type) {
	case PoolPanelView:
		pv.Map.Version, pv.Map.Changed, pv.Map.AllChanged = 0, nil, false
		v = pv
	case PrefillPoolView:
		v = drawnWhole(pv)
	}
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return sha256.Sum256(data)
}
