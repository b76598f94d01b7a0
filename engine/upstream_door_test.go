package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// SGLang #38935 (test_admission_abort_not_enqueued.py,
// test_rejected_request_is_retired_at_each_pd_door): PrefillBootstrapQueue.add
// and DecodePreallocQueue.add each retire only a request whose own to_finish
// is set. In the window decode admitted the prompt, so it preallocates; no KV
// comes and decode answers 500 (DecodeTransferQueue.pop_transferred on
// KVPoll.Failed), reading no stale page. Cloudflare's patch, the joint door,
// answers 400 with nothing allocated.
func TestPerServerDoorInTheWindow(t *testing.T) {
	run := func(m Mode) (Response, *Engine) {
		c := DemoConfig()
		c.Mode = m
		e := newEngine(t, c)
		send(t, e, Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret})
		return send(t, e, Request{Tenant: "B", PromptTokens: DemoPromptB}), e
	}
	joint, _ := run(Fixed)
	assert.Equal(t, 400, joint.Status)
	assert.Zero(t, joint.Allocated, "Cloudflare's patch allocates nothing")

	up, e := run(Upstream)
	assert.Equal(t, 500, up.Status, "the router returns decode's answer")
	assert.Equal(t, StateErrored, up.State)
	assert.Contains(t, up.Reason, "Decode transfer failed")
	assert.Equal(t, DemoConfig().ReservedPages(DemoPromptB), up.Allocated, "decode still preallocates the prompt")
	assert.False(t, up.Leaked(), "nothing is read")
	assert.Zero(t, up.Committed)
	events := e.Log().Copy()
	assert.Zero(t, allocatedByMutations(events, ServerPrefill)[up.Request], "prefill's half was retired: no page on prefill")
	assert.Equal(t, up.Allocated, freedByMutations(events, ServerDecode)[up.Request], "decode frees its reservation")
}

// Where both servers rejected, each door retires its own half: 400, nothing
// allocated; where only decode rejected, decode's door retires and the
// client gets decode's 400 (test_rejected_request_is_retired_at_each_pd_door).
func TestPerServerDoorOutsideTheWindow(t *testing.T) {
	c := DemoConfig()
	c.Mode = Upstream
	c.DecodePoolTokens = c.PoolTokens // symmetric: both reject B
	e := newEngine(t, c)
	r := send(t, e, Request{Tenant: "B", PromptTokens: DemoPromptB})
	assert.Equal(t, 400, r.Status)
	assert.Zero(t, r.Allocated)

	c = DemoConfig()
	c.Mode = Upstream
	c.PoolTokens, c.DecodePoolTokens = c.DecodePoolTokens, c.PoolTokens // decode rejects, prefill admits
	require.NoError(t, c.Validate())
	e = newEngine(t, c)
	r = send(t, e, Request{Tenant: "B", PromptTokens: DemoPromptB})
	assert.Equal(t, 400, r.Status)
	assert.Zero(t, r.Allocated)
	assert.Contains(t, r.Reason, "exceeds the maximum allowed length")
}
