package web

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLinkableBoundsFollowDecodeLink(t *testing.T) {
	p := newPlayground()
	assert.True(t, p.linkable())
	_, err := decodeLink(p.query(false, false))
	require.NoError(t, err)

	p.s.tenant, p.s.text[fieldTokens], p.s.text[fieldSecret] = "A", "1", "x"
	for len(p.s.ops) <= maxLinkOps {
		require.NoError(t, p.s.send())
	}
	assert.False(t, p.linkable(), "%d requests", len(p.s.ops))
	_, err = decodeLink(p.query(false, false))
	assert.Error(t, err, "the link it would write does not open")
}
