package dom

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMemStorage(t *testing.T) {
	m := newMemStorage()
	_, ok := m.getItem("a")
	assert.False(t, ok)
	m.setItem("a", "1")
	m.setItem("b", "2")
	m.setItem("a", "3")
	v, ok := m.getItem("a")
	assert.True(t, ok)
	assert.Equal(t, "3", v)
	k, ok := m.key(1)
	assert.True(t, ok)
	assert.Equal(t, "b", k)
	_, ok = m.key(2)
	assert.False(t, ok)
	_, ok = m.key(-1)
	assert.False(t, ok)
	m.removeItem("a")
	m.removeItem("nope")
	assert.Equal(t, []string{"b"}, m.keys)
	m.clear()
	assert.Empty(t, m.keys)
	_, ok = m.getItem("b")
	assert.False(t, ok, "clear empties the values too")
}
