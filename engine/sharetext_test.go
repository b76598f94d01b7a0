package engine

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A sentence that requests repeat is kept once in the log: the same bytes,
// not an equal copy per event.
func TestRepeatedEventTextsShareTheirBytes(t *testing.T) {
	p, ok := PresetBySlug("glm-launch")
	require.True(t, ok)
	e := newEngine(t, p.Config)
	r := p.Ops[len(p.Ops)-1].Send
	require.NotNil(t, r)
	send(t, e, *r)
	n1 := e.Log().Len()
	send(t, e, *r)
	n2 := e.Log().Len()
	send(t, e, *r)
	evs := e.Log().Copy()
	second, third := evs[n1:n2], evs[n2:]
	require.Len(t, third, len(second))
	shared := 0
	for i := range second {
		if second[i].Text != third[i].Text {
			continue // this one names the request or its pages
		}
		assert.Same(t, unsafe.StringData(second[i].Text), unsafe.StringData(third[i].Text), "%q is kept once", second[i].Text)
		shared++
	}
	assert.GreaterOrEqual(t, shared, len(second)/2, "most of a repeated request's sentences repeat")
}

// share remembers at most sharedTexts texts, however many it is given, and
// gives back what it was given.
func TestShareForgetsPastItsBound(t *testing.T) {
	var e Engine
	for i := range 3 * sharedTexts {
		text := fmt.Sprint("text ", i%(2*sharedTexts))
		require.Equal(t, text, e.share(text))
		require.LessOrEqual(t, len(e.texts), sharedTexts)
	}
}
