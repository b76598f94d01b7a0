package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRetireSetText(t *testing.T) {
	cases := []struct {
		set  RetireSet
		text string
	}{
		{RetireNone, "none"},
		{RetireAll, "all"},
		{RetireNone.With(PendingErrored, true).With(PendingCancelled, true), "errored.cancelled"},
		{RetireAll.With(PendingRejected, false), "errored.aborted.cancelled"},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			assert.Equal(t, tc.text, tc.set.String())
			got, err := ParseRetireSet(tc.text)
			require.NoError(t, err)
			assert.Equal(t, tc.set, got)
		})
	}
	for _, bad := range []string{"", "rejected.", "finished", "errored.errored", "ALL", "none.errored"} {
		_, err := ParseRetireSet(bad)
		assert.Error(t, err, "%q", bad)
	}
}

// The modes keep their meaning: only the pending rejection differs.
func TestRetiresFollowsMode(t *testing.T) {
	cases := []struct {
		mode Mode
		door string
		want string
	}{
		{Vulnerable, DoorFromMode, "errored.aborted.cancelled"},
		{LengthCheckOnly, DoorFromMode, "errored.aborted.cancelled"},
		{Fixed, DoorFromMode, "all"},
		{RetireOnly, DoorFromMode, "all"},
		{Fixed, "none", "none"},
		{Vulnerable, "rejected", "rejected"},
	}
	for _, tc := range cases {
		c := DemoConfig()
		c.Mode, c.Door = tc.mode, tc.door
		assert.Equal(t, tc.want, c.Retires().String(), "%s door=%q", tc.mode, tc.door)
	}
}

func TestDoorValidate(t *testing.T) {
	c := DemoConfig()
	c.Door = "rejected.finished"
	var ce *ConfigError
	require.ErrorAs(t, c.Validate(), &ce)
	assert.Equal(t, "door", ce.Field)
	assert.Equal(t, `what the door retires "rejected.finished": must be "none", "all" or states among rejected, errored, aborted and cancelled joined by dots`, ce.Error())
}

// Each pending state, retired and not, on the demo's pools: what walks
// through and what it costs.
func TestDoorEachState(t *testing.T) {
	secret := Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret}
	cases := []struct {
		name    string
		mode    Mode
		door    string
		reqs    []Request
		status  []int
		verdict string // of the last response
		metrics func(t *testing.T, m Metrics)
	}{
		{"rejected walks through", Vulnerable, "none",
			[]Request{secret, {Tenant: "B", PromptTokens: DemoPromptB}}, []int{200, 200},
			"LEAK: 7 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 125 positions; prefill wrote 1", nil},
		{"rejected retired", Vulnerable, "rejected",
			[]Request{secret, {Tenant: "B", PromptTokens: DemoPromptB}}, []int{200, 400},
			"Rejected with 400 before any page was allocated", nil},
		{"errored walks through", Vulnerable, "none",
			[]Request{secret, {Tenant: "B", PromptTokens: 40, FailTransfer: true}}, []int{200, 200},
			"LEAK: 3 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 40 positions; prefill wrote 0",
			func(t *testing.T, m Metrics) { assert.Equal(t, 1, m.WrongStatus); assert.Equal(t, 3, m.LeakedPages) }},
		{"errored walks through the door, the length check stops it", LengthCheckOnly, "none",
			[]Request{secret, {Tenant: "B", PromptTokens: 40, FailTransfer: true}}, []int{200, 500},
			"Aborted with 500, but nothing retired it: its 3 pages stay held and no later request can have them", nil}, // decode reserved the prompt's 3 pages
		{"errored retired", Vulnerable, "errored",
			[]Request{secret, {Tenant: "B", PromptTokens: 40, FailTransfer: true}}, []int{200, 500},
			"Errored with 500: KV transfer failed (KVPoll.Failed): Internal Server Error", nil},
		{"aborted keeps its pages", LengthCheckOnly, "none",
			[]Request{secret, {Tenant: "B", PromptTokens: DemoPromptB}, {Tenant: "C", PromptTokens: 40}}, []int{200, 400, 0},
			"Waiting in DecodePreallocQueue: 40 + 32 reserved > 32 free; retried when pages are released",
			func(t *testing.T, m Metrics) {
				assert.Equal(t, 8, m.PagesUnretired)
				assert.Equal(t, 8, m.Decode.Allocated)
				assert.Equal(t, 1, m.Waiting)
			}},
		{"aborted retired", LengthCheckOnly, "aborted",
			[]Request{secret, {Tenant: "B", PromptTokens: DemoPromptB}, {Tenant: "C", PromptTokens: 40}}, []int{200, 400, 200},
			"OK: HTTP 200 with tenant C's own 3 pages",
			func(t *testing.T, m Metrics) { assert.Zero(t, m.PagesUnretired); assert.Zero(t, m.Decode.Allocated) }},
		{"cancelled runs for nobody", Fixed, "none",
			[]Request{{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret, CancelAt: StagePrefillBootstrap}}, []int{499},
			"Cancelled by the client at prefill.bootstrap, yet nothing retired it: the engine ran it to the end for nobody (8 pages reserved, 8 read)",
			func(t *testing.T, m Metrics) {
				assert.Equal(t, 8, m.GhostPages)
				assert.Equal(t, 1, m.Cancelled)
				assert.Zero(t, m.Responses)
			}},
		{"cancelled retired", Fixed, "cancelled",
			[]Request{{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret, CancelAt: StagePrefillBootstrap}}, []int{499},
			"Cancelled by the client at prefill.bootstrap; every page released",
			func(t *testing.T, m Metrics) { assert.Zero(t, m.GhostPages) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := DemoConfig()
			c.Mode, c.Door = tc.mode, tc.door
			e := newEngine(t, c)
			var got []int
			for _, r := range tc.reqs {
				got = append(got, send(t, e, r).Status)
			}
			assert.Equal(t, tc.status, got)
			last, _ := e.LastResponse()
			assert.Equal(t, tc.verdict, last.Verdict())
			if tc.metrics != nil {
				tc.metrics(t, e.Metrics())
			}
		})
	}
}

// An unchecked failed transfer reads only the prompt's reserved pages.
func TestDoorErroredReadsReservedPages(t *testing.T) {
	c := DemoConfig()
	c.Door = "none"
	e := newEngine(t, c)
	send(t, e, Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret})
	r := send(t, e, Request{Tenant: "B", PromptTokens: 40, FailTransfer: true})
	assert.Equal(t, pg(0, 3), r.ReadPages)
	assert.True(t, r.FailedUnseen)
	assert.True(t, r.WrongStatus)
	assert.Equal(t, "HTTP 200 to tenant B carrying 3 pages of tenant A: a leak.", e.Log().At(r.Step-1).Text)
}

func TestDoorPresets(t *testing.T) {
	cases := map[string][]string{
		"door-errored": {"OK: HTTP 200 with tenant A's own 8 pages", "LEAK: 8 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 120 positions; prefill wrote 0"},
		"door-aborted": {"OK: HTTP 200 with tenant A's own 8 pages",
			"Aborted with 400, but nothing retired it: its 8 pages stay held and no later request can have them",
			"Waiting in DecodePreallocQueue: 40 + 32 reserved > 32 free; retried when pages are released"},
		"door-cancelled": {"Cancelled by the client at prefill.bootstrap, yet nothing retired it: the engine ran it to the end for nobody (8 pages reserved, 8 read)",
			"OK: HTTP 200 with tenant B's own 3 pages"},
	}
	for slug, want := range cases {
		t.Run(slug, func(t *testing.T) {
			var got []string
			for _, r := range replayPreset(t, slug).Responses() {
				got = append(got, r.Verdict())
			}
			assert.Equal(t, want, got)
		})
	}
}

func TestPendingInfosCoverStates(t *testing.T) {
	infos := PendingInfos()
	require.Len(t, infos, len(PendingStates))
	for i, in := range infos {
		assert.Equal(t, PendingStates[i], in.State)
		_, ok := PresetBySlug(in.Preset)
		assert.True(t, ok, "preset %q of %s", in.Preset, in.State)
	}
}
