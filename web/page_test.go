package web

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

// Reset, then Play before any request: the log is empty, so nothing
// plays, and nothing panics (it used to: index out of range).
func TestPlayOnAnEmptyLogDoesNothing(t *testing.T) {
	m, e := mountPage(t)
	m.ctx.Dispatch(m.onReset)
	m.ctx.Dispatch(m.onPlay)
	m.ctx.Dispatch(func(ctx app.Context) { m.onStepBy(ctx, 1); m.onStepBy(ctx, -1) })
	e.ConsumeAll()
	assert.Empty(t, m.crash)
	assert.False(t, m.s.Playing())
	assert.Zero(t, m.s.Steps())
}

// A panic in a change is contained: the banner has the details and the
// link, and the run on screen is the one before the change.
func TestApplyContainsAPanic(t *testing.T) {
	m, e := mountPage(t)
	before := m.s.Engine()
	m.ctx.Dispatch(func(ctx app.Context) {
		m.apply(ctx, func(s *model.Session) error { panic("boom") })
	})
	e.ConsumeAll()
	require.NotEmpty(t, m.crash)
	assert.Contains(t, m.crash, "panic: boom")
	assert.Contains(t, m.crash, "link: ?"+m.s.Query(model.View{}))
	assert.Same(t, before, m.s.Engine())
	assert.Contains(t, app.HTMLString(m.playground), `id="crash"`)
}
