package engine

// experimentPresets are the article's three questions as runs: what the
// door retires, the launch tests, and the defences downstream of free().
func experimentPresets() []Preset {
	demoOps := func() []Op {
		return []Op{
			SendOp(Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret}),
			SendOp(Request{Tenant: "B", PromptTokens: DemoPromptB, Content: "summarise my notes"}),
		}
	}
	with := func(c Config, f func(*Config)) Config { f(&c); return c }
	errored := with(DemoConfig(), func(c *Config) { c.Door = RetireAll.With(PendingErrored, false).String() })
	aborted := with(DemoConfig(), func(c *Config) {
		c.Mode, c.Door = LengthCheckOnly, RetireAll.With(PendingRejected, false).With(PendingAborted, false).String()
	})
	cancelled := with(DemoConfig(), func(c *Config) { c.Mode, c.Door = Fixed, RetireAll.With(PendingCancelled, false).String() })
	glm, _ := presetIn(incidentPresets(), "glm-launch")
	fixed, _ := presetIn(incidentPresets(), "glm-remediated")
	late, _ := presetIn(incidentPresets(), "late-write")
	return []Preset{
		{Slug: "door-errored", Name: "Door: a failed transfer decode is not told of",
			Description: "The simulation's illustration of a door that does not retire errored requests (SGLang's DecodeTransferQueue does poll KVPoll.Failed and answers 500). Tenant B's transfer fails; decode, never told, commits the prompt's 8 reserved pages — which prefill never wrote and which still hold tenant A's secret — and answers 200.",
			Config:      errored, Ops: []Op{
				SendOp(Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret}),
				SendOp(Request{Tenant: "B", PromptTokens: DemoPromptA, Content: "quarterly plan", FailTransfer: true}),
			}},
		{Slug: "door-aborted", Name: "Door: an aborted request that keeps its pages",
			Description: "The simulation's illustration of a door that does not retire aborted requests (SGLang frees an aborted request's pages). The length check (the second part of the article's fix) aborts tenant B's placeholder with 400 — no leak — but nobody frees its slot: the pool's only 8 pages stay held, and tenant C's small request waits in DecodePreallocQueue for good.",
			Config:      aborted, Ops: append(demoOps(), SendOp(Request{Tenant: "C", PromptTokens: 40, Content: "weekly report"}))},
		{Slug: "door-cancelled", Name: "Door: a cancelled request nobody stops",
			Description: "The simulation's illustration of a door that does not retire cancelled requests (SGLang's abort_request stops one in whichever queue holds it). Tenant A's client leaves at prefill.bootstrap; the request runs on — 8 pages reserved, written and read for nobody — before tenant B is served.",
			Config:      cancelled, Ops: []Op{
				SendOp(Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret, CancelAt: StagePrefillBootstrap}),
				SendOp(Request{Tenant: "B", PromptTokens: 40, Content: "quarterly plan"}),
			}},
		{Slug: "glm-launch-tests", Name: "GLM-5.3 at launch, with launch tests",
			Description: "GLM-5.3 at launch followed by the launch suite: (a) status and streamed output at long context — what the postmortem says was tested — passes; (b) the canaries find another tenant's pages in a 200; (c) the capacity probe — the longest prompt the advertised 1,048,576 tokens admit — is never answered: decode's pool holds the context but not the context plus SGLang's 512 reserved tokens, so the probe waits in DecodePreallocQueue for good.",
			Config:      glm.Config, Ops: append(clone(glm.Ops), LaunchSuite(glm.Config)...)},
		{Slug: "glm-remediated-tests", Name: "After remediation, with launch tests",
			Description: "The remediated deployment (pool about 2,040,000 tokens, and Cloudflare's patch) through the same launch suite: all three tests pass.",
			Config:      fixed.Config, Ops: append(clone(fixed.Ops), LaunchSuite(fixed.Config)...)},
		{Slug: "writer-check", Name: "Decode checks each page's last writer",
			Description: "The article's demo on the vulnerable door with a defence downstream of free(): before it attends, decode checks the last writer of every page against the request — one metadata read per page, on every request. Tenant B's read stops at the first page tenant A wrote: 500, nothing foreign returned. The check is the simulation's illustration. SGLang's nearest defence is the opt-in KV-transfer checksum (PR #39500, --disaggregation-enable-kv-checksum, merged 2026-09-15): it aborts a request whose transferred bytes do not match what prefill sent, but here prefill's one token arrives intact — what it cannot see is decode attending over positions nobody sent.",
			Config:      with(DemoConfig(), func(c *Config) { c.CheckWriter = true }), Ops: demoOps()},
		{Slug: "late-write-checked", Name: "A late write, caught by the writer check",
			Description: "The late-write run with decode's last-writer check: tenant C's pages were last written by r1's late transfer, so decode aborts C with 500 instead of returning tenant A's secret. Neither door fix (the article's, or SGLang's #38935) reaches this bug class; the check does.",
			Config:      with(late.Config, func(c *Config) { c.CheckWriter = true }), Ops: clone(late.Ops)},
		{Slug: "gateway-block", Name: "AI gateway in front, blocking",
			Description: "The article's demo behind an AI gateway that keeps bounded fingerprints of each tenant's prompts and inspects each response. Tenant B's 200 echoes text fingerprinted from tenant A's prompt: the gateway replaces it with a 502. The gateway is the simulation's illustration; it catches leaked KV only when the model echoes it as text.",
			Config:      with(DemoConfig(), func(c *Config) { c.Gateway = GatewayBlock }), Ops: demoOps()},
	}
}
