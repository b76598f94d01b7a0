// Package preview draws the link preview: the picture a chat or social site
// shows for a shared link to the playground. It draws an engine run's last
// response — the pages decode read, the leaked ones marked, the verdict in
// words — so the picture says what the playground shows, not a claim of its
// own. sitegen draws the demo run into the site at build time.
//
// Build-side only: the wasm must not import it (it carries fonts).
package preview

import (
	"errors"
	"fmt"

	"kvleak/engine"
)

// Scene is what the preview shows, all of it read from the engine.
type Scene struct {
	Reader  string // tenant whose request got the response
	Status  int    // the HTTP status it got
	Verdict string // the response's Headline(), drawn as is
	Tiles   []Tile // the pages decode read, in slot order
	Leaked  int    // how many of them are marked leaked
}

// Tile is one page of the slot.
type Tile struct {
	Page   int
	Owner  string // tenant whose KV the page holds; "" when it holds none
	Color  int    // the owner's index among the run's tenants, for its colour; -1 for none
	Leaked bool
}

// maxTiles keeps the tiles wide enough for their words; the article's slot
// has eight pages.
const maxTiles = 12

// Demo is the scene of the article's demo run (the "demo" preset).
func Demo() (Scene, error) {
	p, ok := engine.PresetBySlug("demo")
	if !ok {
		return Scene{}, errors.New("preview: no demo preset")
	}
	e, err := engine.Replay(p.Config, p.Ops)
	if err != nil {
		return Scene{}, fmt.Errorf("preview: replaying the demo: %w", err)
	}
	return FromEngine(e)
}

// FromEngine is the scene of e's last response.
func FromEngine(e *engine.Engine) (Scene, error) {
	rs := e.Responses()
	if len(rs) == 0 {
		return Scene{}, errors.New("preview: the run has no response")
	}
	r := rs[len(rs)-1]
	if n := r.ReadPages.Len(); n == 0 || n > maxTiles {
		return Scene{}, fmt.Errorf("preview: the last response read %d pages: must be between 1 and %d", n, maxTiles)
	}
	s := Scene{Reader: r.Tenant, Status: r.Status, Verdict: r.Headline(), Leaked: r.LeakedPages.Len()}
	snap := e.Snapshot()
	var err error
	r.ReadPages.Each(func(id int) bool {
		var p engine.PageInfo
		if p, err = snap.Page(id); err != nil {
			return false
		}
		s.Tiles = append(s.Tiles, Tile{Page: id, Owner: p.Owner, Color: tenantIndex(e, p.Owner), Leaked: r.LeakedPages.Contains(id)})
		return true
	})
	return s, err
}

// tenantIndex matches the page's tenant-N colour class.
func tenantIndex(e *engine.Engine, tenant string) int {
	for i, t := range e.Tenants() {
		if t == tenant {
			return i
		}
	}
	return -1
}

// Alt describes the picture in words, for og:image:alt.
func (s Scene) Alt() string {
	return fmt.Sprintf("Tenant %s's request read %d KV pages, %d of them marked leaked. %s",
		s.Reader, len(s.Tiles), s.Leaked, s.Verdict)
}
