package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGateway(t *testing.T) {
	cases := []struct {
		gw       GatewayMode
		status   int
		verdict  string
		alerts   int
		blocks   int
		bodySegs int
	}{
		{GatewayOff, 200, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 125 positions; prefill wrote 1", 0, 0, 2},
		{GatewayAlert, 200, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 125 positions; prefill wrote 1 — the AI gateway raised an alert", 1, 0, 2},
		{GatewayBlock, 502, "BLOCKED by the AI gateway: decode read 7 pages of tenant A for tenant B; the client got 502 instead", 0, 1, 0},
	}
	for _, tc := range cases {
		t.Run(string(tc.gw), func(t *testing.T) {
			c := DemoConfig()
			c.Gateway = tc.gw
			e := newEngine(t, c)
			send(t, e, Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret})
			r := send(t, e, Request{Tenant: "B", PromptTokens: DemoPromptB, Content: "summarise my notes"})
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, tc.verdict, r.Verdict())
			assert.Len(t, r.Body, tc.bodySegs)
			assert.Equal(t, 7, r.LeakedPages.Len(), "decode read them whatever the gateway did")
			m := e.Metrics()
			assert.Equal(t, tc.alerts, m.GatewayAlerts)
			assert.Equal(t, tc.blocks, m.GatewayBlocks)
		})
	}
}

// The gateway sees text only: content another tenant also sent, or that
// no tenant sent, passes it.
func TestGatewayBlindSpots(t *testing.T) {
	cases := []struct {
		name    string
		a, b    string // A's and B's content
		flagged bool
	}{
		{"foreign secret", DemoSecret, "notes", true},
		{"both sent the same text", "same text", "same text", false},
		{"both sent nothing", "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := DemoConfig()
			c.Gateway = GatewayAlert
			e := newEngine(t, c)
			send(t, e, Request{Tenant: "A", PromptTokens: DemoPromptA, Content: tc.a})
			send(t, e, Request{Tenant: "B", PromptTokens: 8, Content: tc.b}) // B's own fingerprint first
			r := send(t, e, Request{Tenant: "B", PromptTokens: DemoPromptB, Content: tc.b})
			require.True(t, r.Leaked(), "decode read A's pages in every case")
			assert.Equal(t, tc.flagged, r.Gateway == "alert")
		})
	}
}

// A tenant's fingerprints are a fixed ring: the 65th prompt forgets the
// first, and memory does not grow.
func TestGatewayPrintsAreBounded(t *testing.T) {
	var p prints
	for i := range GatewayPrints + 1 {
		p.add(fingerprint(fmt.Sprint("prompt ", i)))
	}
	assert.Equal(t, GatewayPrints, p.n)
	assert.False(t, p.has(fingerprint("prompt 0")), "the oldest was forgotten")
	assert.True(t, p.has(fingerprint("prompt 1")))
	assert.True(t, p.has(fingerprint(fmt.Sprint("prompt ", GatewayPrints))))
}

func TestWriterCheck(t *testing.T) {
	cases := []struct {
		slug    string
		verdict string
		checks  int
		leaked  int
	}{
		{"writer-check", "Aborted with 500 before decode read anything: decode's writer check: page 2 was last written by r1 (tenant A), not by this request", 10, 0},
		{"late-write-checked", "Aborted with 500 before decode read anything: decode's writer check: page 1 was last written by r1 (tenant A), not by this request", 9, 0},
		{"demo", "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 125 positions; prefill wrote 1", 0, 7},
	}
	for _, tc := range cases {
		t.Run(tc.slug, func(t *testing.T) {
			e := replayPreset(t, tc.slug)
			last, _ := e.LastResponse()
			assert.Equal(t, tc.verdict, last.Verdict())
			m := e.Metrics()
			assert.Equal(t, tc.checks, m.WriterChecks, "one metadata read per page checked")
			assert.Equal(t, tc.leaked, m.LeakedPages)
		})
	}
}

// The check costs one read per page a request attends over, every request.
func TestWriterCheckCostsAReadPerPage(t *testing.T) {
	c := DemoConfig()
	c.CheckWriter = true
	e := newEngine(t, c)
	for range 3 {
		send(t, e, Request{Tenant: "A", PromptTokens: DemoPromptA})
	}
	assert.Equal(t, 24, e.Metrics().WriterChecks)
	assert.Equal(t, 3, e.Metrics().Finished)
}

func TestGatewayBlockAnnouncement(t *testing.T) {
	last, _ := replayPreset(t, "gateway-block").LastResponse()
	assert.Equal(t, "Request 2 from tenant B: HTTP 502. BLOCKED by the AI gateway: decode read 7 pages of tenant A for tenant B; the client got 502 instead", last.Announcement())
}
