package deploycheck

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// small is a pair at the article demo's scale, fast to replay.
func small(prefillPool, decodePool int, version string) (Server, Server) {
	s := func(mode string, pool int) Server {
		return Server{Source: FromServerInfo, Mode: mode, Backend: "mooncake", Version: version,
			ContextTokens: 256, PoolTokens: pool, PageTokens: 16, names: serverInfoNames}
	}
	return s(ModePrefill, prefillPool), s(ModeDecode, decodePool)
}

// replay runs a verdict's replay on the engine and returns the last
// response: the one the reader watches.
func replay(t *testing.T, v Verdict) (Replay, engine.Response) {
	t.Helper()
	r, err := v.Replay()
	require.NoError(t, err)
	require.NoError(t, r.Config.Validate())
	e, err := engine.Replay(r.Config, r.Ops)
	require.NoError(t, err)
	resp, ok := e.LastResponse()
	require.True(t, ok)
	require.Equal(t, r.Prompt, resp.Tokens)
	return r, resp
}

func leaksSecret(resp engine.Response) bool {
	for _, l := range resp.Leaks {
		if l.Tenant == replayTenantA {
			return true
		}
	}
	return false
}

// An open window replays to tenant A's secret in B's 200; a closed one, or
// a fixed door, to a 400 that reads nobody's KV.
func TestReplayOnTheEngine(t *testing.T) {
	for _, c := range []struct {
		name         string
		prefill, dec int
		version      string
		leaks        bool
		status       int
	}{
		{"the demo's pools, vulnerable", 128, 144, "0.5.20", true, 200},
		{"decode's pool far larger: earlier traffic warms it", 128, 4096, "0.5.20", true, 200},
		{"the demo's pools, fixed", 128, 144, "0.5.21", false, 400},
		{"symmetric pools", 128, 128, "0.5.20", false, 400},
		{"prefill fixed: retired at its door", 128, 144, "0.5.21/0.5.20", false, 400},
		{"decode fixed: its length check", 128, 144, "0.5.20/0.5.21", false, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			pv, dv, mixed := strings.Cut(c.version, "/")
			p, d := small(c.prefill, c.dec, pv)
			if mixed {
				d.Version = dv
			}
			v, err := Check(p, d)
			require.NoError(t, err)
			r, resp := replay(t, v)
			assert.Equal(t, v.Window.Open(), r.InWindow)
			assert.Equal(t, c.leaks, leaksSecret(resp), "%+v", resp.Leaks)
			assert.Equal(t, c.status, resp.Status, resp.Reason)
			assert.Equal(t, v.Mode, r.Config.Mode)
			if r.InWindow {
				assert.True(t, v.Window.Contains(r.Prompt))
			} else {
				assert.True(t, v.Prefill.Limits.Rejects(r.Prompt), "just past prefill's limit")
				assert.False(t, v.Prefill.Limits.Rejects(r.Prompt-1))
			}
		})
	}
}

// Earlier traffic is what puts another tenant's KV under B's reservation:
// without it, a decode pool larger than B's reservation hands B pages
// nobody wrote (SGLang's sorted free list takes fresh pages first).
func TestReplayWarmsTheDecodePool(t *testing.T) {
	p, d := small(128, 4096, "0.5.20")
	v, err := Check(p, d)
	require.NoError(t, err)
	r, _ := replay(t, v)
	var cold []engine.Op
	for _, op := range r.Ops {
		if op.Send.Tenant != replayTenantD {
			cold = append(cold, op)
		}
	}
	require.Less(t, len(cold), len(r.Ops), "the replay sends earlier traffic")
	e, err := engine.Replay(r.Config, cold)
	require.NoError(t, err)
	resp, _ := e.LastResponse()
	assert.False(t, leaksSecret(resp), "a cold pool hands B fresh pages")
	assert.Equal(t, 200, resp.Status, "still the wrong 200, over KV nobody wrote")
}

// The article's launch at full scale: B's prompt in the window reads A's
// secret.
func TestReplayGLMLaunch(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a million-page request")
	}
	p, d := pair(t, "glm-launch")
	v, err := CheckText(p, d)
	require.NoError(t, err)
	r, resp := replay(t, v)
	assert.Equal(t, 1_048_569, r.Prompt)
	assert.Equal(t, engine.Config{
		ContextTokens: 1_048_576, PoolTokens: 681_280, DecodePoolTokens: 1_048_576, PageTokens: 1,
		Mode: engine.Vulnerable, Allocator: engine.Sorted, Cancel: engine.CancelBoth, KVBytesPerToken: engine.DefaultKVBytesTok,
	}, r.Config)
	assert.True(t, leaksSecret(resp), "%+v", resp.Leaks)
	assert.Equal(t, 200, resp.Status)
	assert.Empty(t, r.Notes)
}

// Nothing pasted reaches the replay: its requests are the playground's own.
func TestReplayCarriesNoPastedText(t *testing.T) {
	p, d := pair(t, "glm-launch")
	p = strings.Replace(p, `"zai-org/GLM-5.3"`, `"SECRET-MODEL-NAME"`, 1)
	v, err := CheckText(p, d)
	require.NoError(t, err)
	r, err := v.Replay()
	require.NoError(t, err)
	for _, op := range r.Ops {
		assert.Contains(t, []string{replayTenantA, replayTenantB, replayTenantD}, op.Send.Tenant)
		assert.Contains(t, []string{engine.DemoSecret, warmContent, probeContent, pastContent}, op.Send.Content)
	}
}

// The replay says where one engine cannot be the pair as deployed.
func TestReplayNotes(t *testing.T) {
	p, d := small(128, 144, "")
	d.PageTokens, d.ContextTokens = 8, 512
	v, err := Check(p, d)
	require.NoError(t, err)
	r, err := v.Replay()
	require.NoError(t, err)
	assert.Equal(t, []string{
		"the replay's two pools use prefill's page size, 16 tokens",
		"the replay's two servers use the smaller context length, 256 tokens",
		"the replay runs the pre-fix door where the release is unknown",
	}, r.Notes)
	assert.Equal(t, 256, r.Config.ContextTokens)
	assert.Equal(t, 16, r.Config.PageTokens)
}

// Pools the engine cannot hold together are not replayed.
func TestReplayTooLarge(t *testing.T) {
	p, d := small(engine.MaxPoolTokens, engine.MaxPoolTokens, "0.5.20")
	p.PageTokens, d.PageTokens = 1, 1
	p.ContextTokens, d.ContextTokens = engine.MaxContextTokens, engine.MaxContextTokens
	v, err := Check(p, d)
	require.NoError(t, err)
	_, err = v.Replay()
	assert.ErrorIs(t, err, ErrNoReplay)
}
