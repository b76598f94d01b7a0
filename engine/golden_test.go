package engine

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
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden/*.txt from the engine as it is")

// TestPresetsGolden pins everything a preset shows, at every step of its log
// and on both servers, to a digest written by the engine as it was before
// the page table became runs: the responses, the log's lines, the metrics,
// each pool's occupancy, cells, page map and chosen pages. It visits the
// steps forward and then back, so undo is held to what redo showed.
func TestPresetsGolden(t *testing.T) {
	for _, p := range Presets() {
		t.Run(p.Slug, func(t *testing.T) {
			got := presetDigest(t, p)
			path := filepath.Join("testdata", "golden", p.Slug+".txt")
			if *updateGolden {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./engine -run TestPresetsGolden -update-golden")
			require.Equal(t, string(want), got)
		})
	}
}

func presetDigest(t *testing.T, p Preset) string {
	t.Helper()
	e, err := Replay(p.Config, p.Ops)
	require.NoError(t, err)
	var b strings.Builder
	line := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	js := func(v any) string {
		data, err := json.Marshal(v)
		require.NoError(t, err)
		return string(data)
	}
	for _, r := range e.Responses() {
		line("response %s", js(r))
		line("transcript %s", js(r.Transcript()))
	}
	for i := range e.Log().Len() {
		ev := e.Log().At(i)
		line("event %d %s %s %s %s", i, ev.Stage, ev.Half, ev.Pages, ev.Text)
	}
	line("metrics %s", js(e.Metrics()))
	n := e.Log().Len()
	forward := make(map[string]string)
	visit := func(step int) string {
		var d strings.Builder
		for _, s := range Servers {
			snap, err := e.SnapshotAtOf(s, step)
			require.NoError(t, err)
			fmt.Fprintln(&d, stepDigest(t, snap))
		}
		return d.String()
	}
	for step := 0; step <= n; step++ {
		forward[fmt.Sprint(step)] = visit(step)
		b.WriteString(forward[fmt.Sprint(step)])
	}
	for step := n; step >= 0; step-- {
		require.Equal(t, forward[fmt.Sprint(step)], visit(step), "step %d visited backwards", step)
	}
	return b.String()
}

// stepDigest is one pool at one step: what the grid, the map and the
// details show, the large parts as hashes.
func stepDigest(t *testing.T, s *Snapshot) string {
	t.Helper()
	free, held, stale := s.Occupancy()
	cells, err := s.Cells(0, s.Pages()-1, 61)
	require.NoError(t, err)
	cellJSON, err := json.Marshal(cells)
	require.NoError(t, err)
	ids := []int{0, 1, s.Pages() / 3, s.Pages() / 2, s.Pages() - 1}
	if r, ok := s.LastResponse(); ok {
		for _, run := range r.ReadPages {
			ids = append(ids, run.First, run.First+run.Count-1)
		}
		ids = append(ids, lastPage(r.LeakedPages))
	}
	var pages []PageInfo
	for _, id := range ids {
		if p, err := s.Page(id); err == nil {
			pages = append(pages, p)
		}
	}
	pageJSON, err := json.Marshal(pages)
	require.NoError(t, err)
	last, _ := s.LastResponse()
	return fmt.Sprintf("step %d %s: free %d held %d stale %d map %x cells %x pages %x last r%d lingering %v",
		s.Step(), s.Server(), free, held, stale, sha256.Sum256(s.PageMap(nil)), sha256.Sum256(cellJSON), sha256.Sum256(pageJSON), last.Request, last.Lingering)
}
