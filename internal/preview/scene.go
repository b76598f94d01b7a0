// Package preview is what the link preview shows: the picture a chat or
// social site shows for a shared link to the playground is an engine run's
// last response — the pages decode read, the leaked ones marked, the
// verdict in words — so it says what the playground shows, not a claim of
// its own. cmd/previewgen draws the demo run's scene into
// static/preview.png (go generate); sitegen names it, with Alt's words, in
// the pages' link-preview tags.
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

// Width and Height are the size link previews ask for (1.91:1).
const Width, Height = 1200, 630

// MaxTiles keeps the tiles wide enough for their words; the article's slot
// has eight pages.
const MaxTiles = 12

// Preset is the scene of a preset's run; the picture is the "demo"
// preset's, the article's demo.
func Preset(slug string) (Scene, error) {
	p, ok := engine.PresetBySlug(slug)
	if !ok {
		return Scene{}, fmt.Errorf("preview: no preset %q", slug)
	}
	e, err := engine.Replay(p.Config, p.Ops)
	if err != nil {
		return Scene{}, fmt.Errorf("preview: replaying %s: %w", slug, err)
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
	if n := r.ReadPages.Len(); n == 0 || n > MaxTiles {
		return Scene{}, fmt.Errorf("preview: the last response read %d pages: must be between 1 and %d", n, MaxTiles)
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
