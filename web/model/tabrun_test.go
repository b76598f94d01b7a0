package model

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// longSession is a run too long for a link.
func longSession(t *testing.T) *Session {
	t.Helper()
	s := NewSession()
	require.NoError(t, s.SelectTenant("A"))
	s.text[PromptTokens], s.text[Secret] = "1", "x"
	for s.Linkable() {
		require.NoError(t, s.Send())
	}
	return s
}

func TestAddressQueryOfALongRunNamesTheTab(t *testing.T) {
	assert.Equal(t, NewSession().Query(View{}), NewSession().AddressQuery(), "a linkable run is its permalink")

	s := longSession(t)
	s.SetView(View{Compare: true})
	assert.Equal(t, "v=4&tab=1&compare=1", s.AddressQuery())
	st, err := DecodeLink(s.AddressQuery())
	require.NoError(t, err)
	assert.True(t, st.Tab)
	assert.True(t, st.View.Compare)

	_, err = DecodeLink("v=4&tab=1&pool=8")
	assert.ErrorContains(t, err, "takes no other run parameters")
	_, err = DecodeLink("v=4&tab=yes")
	assert.ErrorContains(t, err, "must be 1")
}

func TestTabRunRestoresTheRun(t *testing.T) {
	s := longSession(t)
	require.NoError(t, s.SelectStep(7))
	data, err := s.TabRun()
	require.NoError(t, err)

	again := NewSession()
	require.NoError(t, again.RestoreTabRun(data))
	assert.Equal(t, s.Config(), again.Config())
	assert.Equal(t, s.Ops(), again.Ops())
	assert.Equal(t, 7, again.Step())
	assert.Equal(t, s.Response(), again.Response())
}

func TestTabRunRefusesBadDataAndChangesNothing(t *testing.T) {
	for name, data := range map[string]string{
		"not JSON":       "{",
		"unknown preset": `{"Preset":"nope","Config":{"context":16,"pool":8,"dpool":16,"page":1,"mode":"vulnerable","cancel":"both","kvBytes":70272},"Ops":[{"settle":{"request":9,"outcome":"drained"}}]}`,
		"bad config":     `{"Config":{"pool":0}}`,
		"huge":           `"` + strings.Repeat("x", 5<<20) + `"`,
	} {
		t.Run(name, func(t *testing.T) {
			s := NewSession()
			before := s.Engine()
			require.Error(t, s.RestoreTabRun([]byte(data)))
			assert.Same(t, before, s.Engine())
		})
	}
}

// A run kept in the tab before the engine had two pools (its address
// v=2&tab=1) reopens after an upgrade, as links and files of version 2 do:
// slot is dropped, decode gets a pool that backs the context, and the
// notice says so.
func TestARunKeptBeforeTwoPoolsReopens(t *testing.T) {
	// As TabRun wrote it at link version 2 (39bd10b): pages per slot, no dpool.
	old := `{"Preset":"","Config":{"context":256,"pool":128,"page":16,"slot":8,"mode":"vulnerable","alloc":"sorted","scrub":false,"cancel":"both","kvBytes":70272},` +
		`"Ops":[{"send":{"tenant":"A","tokens":120,"content":"PROJECT_ZEPHYR_Q4_FORECAST"}},{"send":{"tenant":"B","tokens":200,"content":"summarise my notes"}}],"Step":3,"View":{}}`
	s := NewSession()
	require.NoError(t, s.RestoreTabRun([]byte(old)))
	assert.Equal(t, 256, s.Config().DecodePoolTokens)
	assert.Equal(t, 3, s.Step())
	assert.True(t, strings.HasPrefix(s.Notice(), "This run kept in this tab (link version 2) was made when the playground had one KV pool."), s.Notice())
	r, ok := s.Engine().LastResponse()
	require.True(t, ok)
	assert.Equal(t, 7, r.LeakedPages.Len())

	// Kept again, it is today's: it reopens without a word.
	data, err := s.TabRun()
	require.NoError(t, err)
	assert.Contains(t, string(data), `"dpool":256`)
	again := NewSession()
	require.NoError(t, again.RestoreTabRun(data))
	assert.Empty(t, again.Notice())
	assert.Equal(t, s.Config(), again.Config())
}
