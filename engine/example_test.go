package engine_test

import (
	"fmt"

	"kvleak/engine"
)

// The article's demo on two servers: tenant A's secret fills 8 pages of
// decode's pool; tenant B's 125 tokens are rejected by prefill's
// validate_input_length and admitted by decode's, so decode reserves 8
// pages — A's — and attends over all 125 positions while prefill writes
// one placeholder token into the first.
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
	fmt.Printf("positions: %d own, %d of another tenant, %d empty\n", resp.OwnTokens, resp.ForeignTokens, resp.EmptyTokens)
	// Output:
	// HTTP 200
	// LEAK: 7 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 125 positions; prefill wrote 1
	// pages 1: tenant-B:<placeholder-token> (leaked: false)
	// pages 2–8: tenant-A:PROJECT_ZEPHYR_Q4_FORECAST (leaked: true)
	// positions: 1 own, 119 of another tenant, 5 empty
}

func ExampleConfig_Capacity() {
	launch, _ := engine.PresetBySlug("glm-launch")
	fixed, _ := engine.PresetBySlug("glm-remediated")
	fmt.Println(launch.Config.Capacity())
	fmt.Println(fixed.Config.Capacity())
	// Output:
	// advertised 1,048,576 tokens; prefill pool 681,280 — short by 367,296 (max_req_input_len 681,274); decode pool 1,048,576 — backed, 1.00× the context (max_req_input_len 1,048,570, context − 6); the window is open: prompts of 681,274–1,048,569 tokens pass the API and decode's intake, while prefill's rejects them and transfers one placeholder token; decode attends over those of 681,274–1,048,064 tokens — longer ones never fit its prealloc budget or are left no token to decode
	// advertised 1,048,576 tokens; prefill pool 2,040,000 — backed, 1.95× the context (max_req_input_len 1,048,570, context − 6); decode pool 1,049,088 — backed, 1.00× the context (max_req_input_len 1,048,570, context − 6); the window is closed: prefill admits every prompt decode admits
}

// LeakWindow is the prompt lengths prefill's validate_input_length rejects
// and decode's admits: the ones that leak under the vulnerable door.
func ExampleLeakWindow() {
	prefill := engine.NewLimits(engine.GLMContextTokens, engine.GLMLaunchPoolTokens, 1)
	for _, decode := range []int{engine.GLMDecodePoolTokens, engine.GLMLaunchPoolTokens} {
		w := engine.LeakWindow(prefill, engine.NewLimits(engine.GLMContextTokens, decode, 1))
		fmt.Printf("decode pool %s: %s\n", engine.Thousands(int64(decode)), w)
	}
	// Output:
	// decode pool 1,048,576: 681,274–1,048,569 tokens
	// decode pool 681,280: closed
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
