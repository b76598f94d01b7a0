package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BudgetAt gives each decode.prealloc event the check pop_preallocated
// made there, and nothing to any other event: the demo's A and B fit the
// page's reserve; at SGLang's default A waits on the budget and B behind it.
func TestBudgetAtEachPrealloc(t *testing.T) {
	p, _ := PresetBySlug("demo")
	e, err := Replay(p.Config, p.Ops)
	require.NoError(t, err)
	empty := p.Config.emptyBudget()
	for i := range e.Log().Len() {
		ev := e.Log().At(i)
		if ev.Stage != StageDecodePrealloc {
			assert.Empty(t, e.BudgetAt(ev.Step), "step %d", ev.Step)
			continue
		}
		n := p.Ops[ev.Request-1].Send.PromptTokens
		want := empty.Check(n, p.Config.Admit(n, 0).MaxNew, p.Config.ReservedDecodeTokens, p.Config.PageTokens)
		assert.Equal(t, want.String(), e.BudgetAt(ev.Step), "r%d", ev.Request)
	}
	assert.Empty(t, e.BudgetAt(0))
	assert.Empty(t, e.BudgetAt(e.Log().Len()+1))

	c := p.Config
	c.ReservedDecodeTokens = DefaultReservedDecodeTokens
	e, err = Replay(c, p.Ops)
	require.NoError(t, err)
	var got []string
	for i := range e.Log().Len() {
		if ev := e.Log().At(i); ev.Stage == StageDecodePrealloc {
			got = append(got, e.BudgetAt(ev.Step))
		}
	}
	a := c.emptyBudget().Check(DemoPromptA, c.Admit(DemoPromptA, 0).MaxNew, c.ReservedDecodeTokens, c.PageTokens)
	require.False(t, a.Fits())
	assert.Equal(t, []string{a.String(), "behind r1"}, got)
}
