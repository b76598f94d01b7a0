package deploycheck_test

import (
	"fmt"

	"kvleak/deploycheck"
)

// The article's launch: a prefill pool of 681,280 tokens behind a context
// of 1,048,576, decode's pool backing the context, on 0.5.20.
func ExampleCheckText() {
	prefill := `{"version": "0.5.20", "context_length": 1048576, "page_size": 1,
		"disaggregation_mode": "prefill", "disaggregation_transfer_backend": "mooncake", "max_total_num_tokens": 681280}`
	decode := `python -m sglang.launch_server --context-length 1M --max-total-tokens 1048576 \
		--disaggregation-mode decode --disaggregation-transfer-backend mooncake`
	v, err := deploycheck.CheckText(prefill, decode)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Headline)
	fmt.Println(v.Window.First, v.Window.Last)
	// Output:
	// EXPOSED: prompts of 681,274–1,048,569 tokens pass decode's door and take prefill's placeholder path; prefill: 0.5.20 (mooncake) predates the fix in 0.5.21; decode: the launch command does not say the SGLang release (mooncake has the fix from 0.5.21)
	// 681274 1048569
}

func ExampleParse() {
	_, err := deploycheck.Parse(`{"version": "0.5.20", "context_length": 1048576, "page_size": 1,
		"disaggregation_mode": "prefill", "max_total_num_tokens": "681k"}`)
	fmt.Println(err)
	// Output:
	// max_total_num_tokens is a string: must be a whole number of tokens
}
