package sitegen

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two encodings of one tree, whose attributes go-app writes in map order,
// are the same bytes once canonical; text, end tags and a value holding an
// escaped quote or a ">" are left as they are.
func TestCanonicalSortsEachTagsAttributes(t *testing.T) {
	assert.Equal(t, `<p a="1" b z="x > y">t &lt;b&gt;</p><br>`, canonical(`<p z="x > y" b a="1">t &lt;b&gt;</p><br>`))
	assert.Equal(t, `<i title="say \"hi\"" x></i>`, canonical(`<i x title="say \"hi\""></i>`))

	tree := func() app.UI {
		return app.Div().ID("a").Class("c").Title("t").Aria("label", "l").DataSet("x", "y").Body(
			app.Button().ID("b").Type("button").Disabled(true).Text("Go"))
	}
	first := canonical(app.HTMLString(tree()))
	for range 20 {
		require.Equal(t, first, canonical(app.HTMLString(tree())))
	}
}

// element finds an element by its id with its whole content, past nested
// elements of its own name; a void element is its start tag.
func TestElementFindsItsEnd(t *testing.T) {
	page := `<div id="x"><div><div id="y">a</div></div><input id="v"></div><div id="z"></div>`
	start, open, end, err := element(page, "x")
	require.NoError(t, err)
	assert.Equal(t, `<div id="x">`, page[start:open])
	assert.Equal(t, `<div id="x"><div><div id="y">a</div></div><input id="v"></div>`, page[start:end])
	start, open, end, err = element(page, "v")
	require.NoError(t, err)
	assert.Equal(t, `<input id="v">`, page[start:end])
	assert.Equal(t, open, end)
	_, _, _, err = element(page, "w")
	assert.ErrorContains(t, err, "no element #w")
	_, _, _, err = element(`<div id="q"><div></div>`, "q")
	assert.ErrorContains(t, err, "no end tag")
	_, _, _, err = element(`<p data-id="w"></p>`, "w")
	assert.Error(t, err, "data-id is not id")
}
