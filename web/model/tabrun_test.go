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
	assert.Equal(t, "v=3&tab=1&compare=1", s.AddressQuery())
	st, err := DecodeLink(s.AddressQuery())
	require.NoError(t, err)
	assert.True(t, st.Tab)
	assert.True(t, st.View.Compare)

	_, err = DecodeLink("v=3&tab=1&pool=8")
	assert.ErrorContains(t, err, "takes no other run parameters")
	_, err = DecodeLink("v=3&tab=yes")
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
