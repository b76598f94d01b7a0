package deploycheck

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// small is a pair at the article demo's scale, fast to replay, whose
// decode server says the demo's num_reserved_decode_tokens, 32: at
// SGLang's 512 no request fits a pool this small.
func small(prefillPool, decodePool int, version string) (Server, Server) {
	s := func(mode string, pool int) Server {
		return Server{Source: FromServerInfo, Mode: mode, Backend: "mooncake", Version: version,
			ContextTokens: 256, PoolTokens: pool, PageTokens: 16, names: serverInfoNames}
	}
	d := s(ModeDecode, decodePool)
	d.ReservedDecodeTokens, d.ReservedSaid = engine.DemoConfig().ReservedDecodeTokens, true
	return s(ModePrefill, prefillPool), d
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

// An open window replays to tenant A's secret in B's 200 — B's prompt the
// longest decode attends over (engine.Config.ReadWindow); a closed one, or
// a fixed door, to a 400 that reads nobody's KV. Worked by hand, at 256
// tokens of context and pages of 16: prefill's pool of 128 rejects 122
// tokens or more (min(255, 127) − 5); decode's of 160 rejects 154 or
// more, and of 4,096 250 or more (the context keeps the window below 256).
func TestReplayOnTheEngine(t *testing.T) {
	for _, c := range []struct {
		name          string
		prefill, dec  int
		version       string
		sglangReserve bool // decode says no reserve: SGLang's 512
		prompt        int
		leaks         bool
		status        int
	}{
		// The window is 122–153; 128 + 32 fills decode's 160.
		{"the demo's pools, vulnerable", 128, 160, "0.5.20", false, 128, true, 200},
		// 122 + 512 > 160: no prompt of the window ever fits decode's
		// budget, and B waits in DecodePreallocQueue for good.
		{"the demo's pools at SGLang's reserve", 128, 160, "0.5.20", true, 153, false, 0},
		// The window is 122–249; 249 + 512 ≤ 4,096, and init_req_max_new_tokens
		// leaves it min(128, 255 − 249 − 1) = 5 tokens to decode.
		{"decode's pool far larger: earlier traffic warms it", 128, 4096, "0.5.20", true, 249, true, 200},
		{"the demo's pools, fixed", 128, 160, "0.5.21", false, 128, false, 400},
		// Closed: the shortest prompt prefill rejects, 122, which decode
		// rejects too: its one placeholder token (1 + 32 ≤ 128), a 400.
		// A's secret is 96 tokens, 128 − 32: 121 would never fit decode's
		// budget, and B would wait behind it for good.
		{"symmetric pools", 128, 128, "0.5.20", false, 122, false, 400},
		{"prefill fixed: retired at its door", 128, 160, "0.5.21/0.5.20", false, 128, false, 400},
		{"decode fixed: its length check", 128, 160, "0.5.20/0.5.21", false, 128, false, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			pv, dv, mixed := strings.Cut(c.version, "/")
			p, d := small(c.prefill, c.dec, pv)
			if mixed {
				d.Version = dv
			}
			d.ReservedSaid = !c.sglangReserve
			v, err := Check(p, d)
			require.NoError(t, err)
			r, resp := replay(t, v)
			assert.Equal(t, c.prompt, r.Prompt)
			assert.Equal(t, d.ReservedDecode(), r.Config.ReservedDecodeTokens)
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

// Earlier traffic is what puts decode's stale pages under B's
// reservation. Worked by hand at pools of 128 and 4,096 tokens (8 and 256
// pages of 16; SGLang's page ids from 1): A's secret is 121 tokens, the
// longest prefill reads, on decode's pages 1–8 (8 holds 9 of them), and B
// sends 249. Cold, B's 16 pages come fresh from the sorted free list
// (9–24); only the whole-page transfer carries, past B's one placeholder
// token, the 15 positions of prefill's page 1 that A wrote: A's KV, on no
// page whose first position is A's. Warm, 30 of D's 121-token prompts
// leave 8 pages free, so B's reservation merges and takes 1–16: A's 2–8
// (6 × 16 + 9 = 105 positions) and D's first prompt's 9–16 (7 × 16 + 9 of
// page 16's 9 read = 121), and prefill's page 1, D's last, gives 15 more
// of D's.
func TestReplayWarmsTheDecodePool(t *testing.T) {
	p, d := small(128, 4096, "0.5.20")
	d.ReservedSaid = false
	v, err := Check(p, d)
	require.NoError(t, err)
	r, warm := replay(t, v)
	var cold []engine.Op
	for _, op := range r.Ops {
		if op.Send.Tenant != replayTenantD {
			cold = append(cold, op)
		}
	}
	require.Equal(t, 30, len(r.Ops)-len(cold), "the replay sends earlier traffic")
	assert.Equal(t, []engine.Leak{{Tenant: replayTenantA, Pages: 7, Tokens: 105}, {Tenant: replayTenantD, Pages: 8, Tokens: 121 + 15}}, warm.Leaks)
	e, err := engine.Replay(r.Config, cold)
	require.NoError(t, err)
	resp, _ := e.LastResponse()
	assert.Equal(t, []engine.Leak{{Tenant: replayTenantA, Pages: 0, Tokens: 15}}, resp.Leaks, "a cold pool hands B fresh pages")
	assert.Zero(t, resp.LeakedPages.Len())
	assert.Equal(t, 200, resp.Status, "still the wrong 200")
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
	// The window is 681,274–1,048,569; decode's budget takes a prompt up
	// to its pool less the 512 the server reserves: 1,048,064.
	assert.Equal(t, 1_048_064, r.Prompt)
	assert.Equal(t, engine.Config{
		ContextTokens: 1_048_576, PoolTokens: 681_280, DecodePoolTokens: 1_048_576, PageTokens: 1, ReservedDecodeTokens: 512,
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
