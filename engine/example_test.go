package engine_test

import (
	"fmt"

	"kvleak/engine"
)

// The article's demo: tenant A's secret fills the one 8-page slot; tenant B's
// over-length request is admitted by the vulnerable door and reads it back.
func ExampleEngine_Send() {
	e, err := engine.New(engine.DemoConfig())
	if err != nil {
		panic(err)
	}
	if _, err := e.Send(engine.Request{Tenant: "A", PromptTokens: engine.DemoPromptA, Content: engine.DemoSecret}); err != nil {
		panic(err)
	}
	resp, err := e.Send(engine.Request{Tenant: "B", PromptTokens: engine.DemoPromptB, Content: "summarise my notes"})
	if err != nil {
		panic(err)
	}
	fmt.Println("HTTP", resp.Status)
	fmt.Println(resp.Verdict())
	for _, seg := range resp.Body {
		fmt.Printf("pages %s: %s (leaked: %v)\n", seg.Pages, seg.Text, seg.Leaked)
	}
	// Output:
	// HTTP 200
	// LEAK: 7 pages of tenant A returned to tenant B with HTTP 200
	// pages 0: tenant-B:<placeholder-token> (leaked: false)
	// pages 1–7: tenant-A:PROJECT_ZEPHYR_Q4_FORECAST (leaked: true)
}

func ExampleConfig_Capacity() {
	launch, _ := engine.PresetBySlug("glm-launch")
	fixed, _ := engine.PresetBySlug("glm-remediated")
	fmt.Println(launch.Config.Capacity())
	fmt.Println(fixed.Config.Capacity())
	// Output:
	// advertised 1,048,576 tokens, pool 681,280 — short by 367,296: the running engine's max_req_input_len is 681,274, so prompts of 681,274 to 1,048,575 tokens pass the API and take the placeholder path
	// advertised 1,048,576 tokens, pool 2,040,000 — backed, 1.95× the context: the running engine's max_req_input_len is 1,048,570 (context − 6)
}

func ExampleReplay() {
	p, _ := engine.PresetBySlug("demo-fixed")
	e, err := engine.Replay(p.Config, p.Ops)
	if err != nil {
		panic(err)
	}
	for _, r := range e.Responses() {
		fmt.Printf("r%d tenant %s: HTTP %d — %s\n", r.Request, r.Tenant, r.Status, r.Verdict())
	}
	fmt.Println("leaked pages:", e.Metrics().LeakedPages)
	// Output:
	// r1 tenant A: HTTP 200 — OK: HTTP 200 with tenant A's own 8 pages
	// r2 tenant B: HTTP 400 — Rejected with 400 before any page was allocated
	// leaked pages: 0
}

func ExampleSnapshot_Cells() {
	p, _ := engine.PresetBySlug("demo")
	e, err := engine.Replay(p.Config, p.Ops)
	if err != nil {
		panic(err)
	}
	cells, err := e.Snapshot().Cells(0, 7, 2)
	if err != nil {
		panic(err)
	}
	for _, c := range cells {
		fmt.Printf("pages %d–%d: %s, owner %s, %d stale, %d leaked\n", c.First, c.Last, c.State, c.Owner, c.Stale, c.Leaked)
	}
	// Output:
	// pages 0–3: leaked, owner A, 4 stale, 3 leaked
	// pages 4–7: leaked, owner A, 4 stale, 4 leaked
}
