package engine

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoV3 is the article's demo as link schema v3 and run file version 3
// ran it: decode's pool 144 tokens, no reserve.
func demoV3() (Config, []Op) {
	c := DemoConfig()
	c.DecodePoolTokens, c.ReservedDecodeTokens = 144, 0
	p, _ := PresetBySlug("demo")
	return c, p.Ops
}

// decodedSends are the sends of a run that decode admits and decodes,
// with what init_req_max_new_tokens leaves each.
func decodedSends(t *testing.T, c Config, ops []Op) map[int]int {
	t.Helper()
	out := map[int]int{}
	for _, op := range ops {
		if op.Send == nil {
			continue
		}
		v := c.Admit(op.Send.PromptTokens, op.Send.MaxNewTokens)
		if v.Refused == NotRefused && !v.DecodeRejected && v.Door != DoorRetires {
			out[op.Send.PromptTokens] = v.MaxNew
		}
	}
	return out
}

// The v3 demo gets the smallest whole-page pool that leaves A and B at
// least 2 max_new_tokens (ClampMaxNew), no reserve, and still leaks A's
// seven pages to B.
func TestMigrateV3RaisesTheDemosDecodePool(t *testing.T) {
	old, ops := demoV3()
	for n, maxNew := range decodedSends(t, old, ops) {
		assert.Less(t, maxNew, 2, "at 144 tokens init_req_max_new_tokens leaves the %d-token prompt %d", n, maxNew)
	}
	c, words := MigrateV3(old, ops)
	require.NoError(t, c.Validate())
	assert.Equal(t, 0, c.ReservedDecodeTokens)
	assert.Zero(t, c.DecodePoolTokens%c.PageTokens, "whole pages")
	for n, maxNew := range decodedSends(t, c, ops) {
		assert.GreaterOrEqual(t, maxNew, 2, "the %d-token prompt is decoded", n)
	}
	smaller := c
	smaller.DecodePoolTokens -= c.PageTokens
	short := false
	for _, maxNew := range decodedSends(t, smaller, ops) {
		short = short || maxNew < 2
	}
	assert.True(t, short, "a page less would not do: the pool is the smallest")
	assert.Contains(t, words, "decode's pool is raised from 144 to "+th(c.DecodePoolTokens)+" tokens")
	assert.Contains(t, words, "this run reserves 0 tokens")

	e, err := Replay(c, ops)
	require.NoError(t, err)
	r, ok := e.LastResponse()
	require.True(t, ok)
	assert.Equal(t, 200, r.Status)
	assert.Equal(t, 7, r.LeakedPages.Len(), "B still reads A's seven stale pages")
}

// A pool that already decodes every request is kept; a raise never makes
// decode admit a prompt it rejected when the run was made.
func TestMigrateV3KeepsWhatDecodeRejected(t *testing.T) {
	p, _ := PresetBySlug("glm-launch")
	c, words := MigrateV3(p.Config, p.Ops)
	assert.Equal(t, p.Config.DecodePoolTokens, c.DecodePoolTokens)
	assert.Contains(t, words, "decode's pool stays "+th(p.Config.DecodePoolTokens)+" tokens.")

	// Symmetric pools as v3 ran them: decode rejects B's 125 tokens, and
	// the pool A would need (160) would admit them.
	sym, ops := demoV3()
	sym.DecodePoolTokens = sym.PoolTokens
	require.True(t, sym.Admit(DemoPromptB, 0).DecodeRejected)
	c, words = MigrateV3(sym, ops)
	assert.True(t, c.Admit(DemoPromptB, 0).DecodeRejected, "decode still rejects B")
	assert.Equal(t, sym.DecodePoolTokens, c.DecodePoolTokens)
	assert.Contains(t, words, "a larger pool would admit a prompt decode rejected when the run was made")
}

// Every preset's run, and every run of a few prompts, migrates to a valid
// configuration in which decode rejects what it rejected and decodes
// what it decoded wherever the bounds allow.
func TestMigrateV3OnEveryPreset(t *testing.T) {
	for _, p := range Presets() {
		c, _ := MigrateV3(p.Config, p.Ops)
		require.NoError(t, c.Validate(), p.Slug)
		assert.GreaterOrEqual(t, c.DecodePoolTokens, p.Config.DecodePoolTokens, p.Slug)
		for _, op := range p.Ops {
			if op.Send != nil {
				n := op.Send.PromptTokens
				assert.Equal(t, p.Config.Admit(n, 0).DecodeRejected, c.Admit(n, 0).DecodeRejected, "%s: %d tokens", p.Slug, n)
			}
		}
	}
}

// A run file of version 3 is read as MigrateV3 says, and says so.
func TestImportRunOfVersion3Migrates(t *testing.T) {
	c, ops := demoV3()
	data, err := json.Marshal(RunFile{Schema: RunFileSchema, Version: 3, Config: c, Ops: ops})
	require.NoError(t, err)
	e, f, err := ImportRun(data)
	require.NoError(t, err)
	want, words := MigrateV3(c, ops)
	assert.Equal(t, want, f.Config)
	assert.Equal(t, words, f.Migrated)
	assert.Equal(t, want, e.Config())

	data, err = json.Marshal(RunFile{Schema: RunFileSchema, Version: RunFileVersion, Config: c, Ops: ops})
	require.NoError(t, err)
	_, f, err = ImportRun(data)
	require.NoError(t, err)
	assert.Equal(t, c, f.Config, "a file of this version is read as it is")
	assert.Empty(t, f.Migrated)
}
