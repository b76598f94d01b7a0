package dom

import (
	"html"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

// fakeEl is an element of a fake page: as much of the DOM as an island's
// patch uses, for testing natively what the browser tests check in the
// page. Any other call panics (the embedded nil Value).
type fakeEl struct {
	app.Value
	open   string // a block's start tag, as parsed
	tag    string // an item's
	attrs  []Attr
	inner  string
	kids   []*fakeEl
	parent *fakeEl
}

// fakeKids is an element's children, a live collection.
type fakeKids struct {
	app.Value
	el *fakeEl
}

type fakeInt struct {
	app.Value
	n int
}

func (n fakeInt) Int() int { return n.n }

func (k fakeKids) Length() int { return len(k.el.kids) }

func (k fakeKids) Index(i int) app.Value {
	if i < 0 || i >= len(k.el.kids) {
		return app.Undefined()
	}
	return k.el.kids[i]
}

func (e *fakeEl) Truthy() bool { return e != nil }

func (e *fakeEl) Get(p string) app.Value {
	switch p {
	case "children":
		return fakeKids{el: e}
	case "childElementCount":
		return fakeInt{n: len(e.kids)}
	}
	panic("fake page: no property " + p)
}

func (e *fakeEl) Set(p string, v any) {
	switch p {
	case "innerHTML":
		e.inner = v.(string)
	case "className": // the class attribute, as the browser reflects it
		e.Call("setAttribute", "class", v)
	default:
		panic("fake page: cannot set " + p)
	}
}

func (e *fakeEl) Call(m string, args ...any) app.Value {
	switch m {
	case "setAttribute":
		a := Attr{args[0].(string), args[1].(string)}
		if i := slices.IndexFunc(e.attrs, func(b Attr) bool { return b.Name == a.Name }); i >= 0 {
			e.attrs[i] = a
		} else {
			e.attrs = append(e.attrs, a)
		}
	case "remove":
		p := e.parent
		p.kids = slices.DeleteFunc(p.kids, func(k *fakeEl) bool { return k == e })
	case "insertAdjacentHTML":
		for _, item := range parseItems(args[1].(string)) {
			item.parent = e
			e.kids = append(e.kids, item)
		}
	default:
		panic("fake page: no method " + m)
	}
	return nil
}

var (
	openTagRE = regexp.MustCompile(`^<([a-z]+)((?: [a-z-]+="[^"]*")*)>`)
	attrRE    = regexp.MustCompile(` ([a-z-]+)="([^"]*)"`)
)

// parseItems reads items' markup as Kind.Item writes it: elements, each
// with its attributes and content.
func parseItems(s string) []*fakeEl {
	var out []*fakeEl
	for s != "" {
		m := openTagRE.FindStringSubmatch(s)
		if m == nil {
			panic("fake page: not an element: " + s)
		}
		el := &fakeEl{tag: m[1]}
		for _, a := range attrRE.FindAllStringSubmatch(m[2], -1) {
			el.attrs = append(el.attrs, Attr{a[1], html.UnescapeString(a[2])})
		}
		rest, depth, end := s[len(m[0]):], 1, 0
		for depth > 0 { // to the matching end tag
			o, c := strings.Index(rest[end:], "<"+el.tag), strings.Index(rest[end:], "</"+el.tag+">")
			if o >= 0 && o < c {
				depth, end = depth+1, end+o+1
				continue
			}
			if depth--; depth > 0 {
				end += c + 1
			} else {
				end += c
			}
		}
		el.inner = rest[:end]
		out = append(out, el)
		s = rest[end+len("</"+el.tag+">"):]
	}
	return out
}

// parseBlock reads a block's markup: its start tag and its items.
func parseBlock(s string) *fakeEl {
	open := openTagRE.FindString(s)
	close := s[strings.LastIndex(s, "</"):]
	b := &fakeEl{open: open}
	for _, item := range parseItems(s[len(open) : len(s)-len(close)]) {
		item.parent = b
		b.kids = append(b.kids, item)
	}
	return b
}

// fakePage is a component's element holding an island's blocks, with the
// strings go-app holds for them.
type fakePage struct {
	root *fakeEl // the blocks' parent, or the one block
	held []string
	one  bool
}

// update is what go-app does with a render's blocks: a block whose string
// is the one it holds stays as it is in the page, another is replaced by
// the element its string parses to.
func (p *fakePage) update(blocks []string) {
	if p.one {
		if p.root == nil || blocks[0] != p.held[0] {
			p.root = parseBlock(blocks[0])
		}
		p.held = blocks
		return
	}
	if p.root == nil {
		p.root = &fakeEl{}
	}
	kids := make([]*fakeEl, len(blocks))
	for i, b := range blocks {
		if i < len(p.held) && p.held[i] == b {
			kids[i] = p.root.kids[i]
			continue
		}
		kids[i] = parseBlock(b)
		kids[i].parent = p.root
	}
	p.root.kids, p.held = kids, blocks
}

var genRE = regexp.MustCompile(` data-gen="\d+"`)

// markup is what the page shows, written as an island writes it but for
// its blocks' generations.
func (p *fakePage) markup() []string {
	blocks := p.root.kids
	if p.one {
		blocks = []*fakeEl{p.root}
	}
	var out []string
	for _, b := range blocks {
		var s strings.Builder
		s.WriteString(genRE.ReplaceAllString(b.open, ""))
		for _, item := range b.kids {
			s.WriteString("<" + item.tag)
			for _, a := range item.attrs {
				s.WriteString(" " + a.Name + `="` + html.EscapeString(a.Value) + `"`)
			}
			s.WriteString(">" + item.inner + "</" + item.tag + ">")
		}
		s.WriteString("</" + openTagRE.FindStringSubmatch(b.open)[1] + ">")
		out = append(out, s.String())
	}
	return out
}

// shows checks, after each update, that the page shows what a fresh
// island writes for it, however it got there.
func shows[T comparable](t *testing.T, k Kind[T], updates [][]T, one bool) (patched int) {
	t.Helper()
	var is Island[T]
	page := &fakePage{one: one}
	for i, items := range updates {
		if page.root != nil && is.Patch(page.root, k, items) {
			patched++
		}
		page.update(is.Render(k, items))
		require.Equal(t, Fresh(k, items), page.markup(), "update %d", i)
	}
	return patched
}

// The grid's cells patched in place through steps, scrubs, Sends, zooms
// and pools of other sizes are what a fresh island writes.
func TestAPatchedGridIsWhatAFreshOneWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, slug := range []string{"demo", "glm-launch", "abort-both"} {
		s := model.NewSession()
		require.NoError(t, s.LoadPreset(slug))
		var grids [][]model.CellView
		var tiles []bool
		for range 60 {
			require.NoError(t, s.SelectStep(rng.IntN(s.Steps()+1)))
			g, err := s.Grid(model.MaxGridCells)
			require.NoError(t, err)
			grids, tiles = append(grids, g.Cells), append(tiles, g.Tiles)
		}
		require.NotContains(t, tiles, !tiles[0], "%s: one pool, one look", slug)
		patched := shows(t, GridCells(tiles[0]), grids, false)
		assert.Greater(t, patched, 30, "%s: steps are patched", slug)
	}
}

// A grid of another size is built anew; one of the same size after it is
// patched again.
func TestAGridOfAnotherSizeIsBuiltAnew(t *testing.T) {
	g := presetGrid(t, "glm-launch")
	small := g.Cells[:40]
	changed := slices.Clone(small)
	changed[3].Name += " (changed)"
	updates := [][]model.CellView{g.Cells, small, changed, g.Cells, small}
	assert.Equal(t, 1, shows(t, GridCells(false), updates, false), "only small → changed keeps the shape")
}

// The marks patched in place, added to and cut short through a random
// walk of Sends and new runs are what a fresh list writes.
func TestPatchedMarksAreWhatAFreshListWrites(t *testing.T) {
	updates := marksWalk(300)
	assert.Greater(t, shows(t, Marks, updates, true), 50, "the Sends are patched")
}

// An island whose page lacks an element gives up the patch and builds
// every block again, each unlike the one go-app holds.
func TestAPageThatLacksAnElementIsBuiltAgain(t *testing.T) {
	g := presetGrid(t, "glm-launch")
	var is Island[model.CellView]
	page := &fakePage{}
	page.update(is.Render(GridCells(false), g.Cells))
	page.root.kids[1].kids = page.root.kids[1].kids[:5] // a run cut short
	changed := slices.Clone(g.Cells)
	changed[GridRun+7].Name += " (changed)"
	require.False(t, is.Patch(page.root, GridCells(false), changed))
	blocks := is.Render(GridCells(false), changed)
	for i := range blocks {
		assert.NotEqual(t, page.held[i], blocks[i], "run %d", i)
	}
	page.update(blocks)
	assert.Equal(t, Fresh(GridCells(false), changed), page.markup())
}
