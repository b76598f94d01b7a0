package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tokenizer_manager.py _validate_one_request: with max_new_tokens sent, it
// refuses max_new_tokens + input > context_len; without it, nothing but the
// input is checked (sampling_params.get("max_new_tokens") is None).
func TestAPIRefusesInputPlusMaxNewTokens(t *testing.T) {
	c := DemoConfig()
	e := newEngine(t, c)
	n := DemoPromptB
	fits := send(t, e, Request{Tenant: "B", PromptTokens: n, MaxNewTokens: c.ContextTokens - n})
	assert.NotEqual(t, PathAPIReject, fits.Path, "input + max_new_tokens = context is allowed")
	over := send(t, e, Request{Tenant: "B", PromptTokens: n, MaxNewTokens: c.ContextTokens - n + 1})
	assert.Equal(t, PathAPIReject, over.Path)
	assert.Equal(t, 400, over.Status)
	assert.Contains(t, over.Reason, "Requested token count exceeds the model's maximum context length")
	assert.Zero(t, over.Allocated)
	unsent := send(t, e, Request{Tenant: "B", PromptTokens: n})
	assert.NotEqual(t, PathAPIReject, unsent.Path, "no max_new_tokens sent: no total check")
}

func TestMaxNewTokensValidate(t *testing.T) {
	var re *RequestError
	require.ErrorAs(t, Request{Tenant: "A", PromptTokens: 1, MaxNewTokens: -1}.Validate(), &re)
	assert.Equal(t, "maxNew", re.Field)
	require.ErrorAs(t, Request{Tenant: "A", PromptTokens: 1, MaxNewTokens: MaxContextTokens + 1}.Validate(), &re)
	assert.NoError(t, Request{Tenant: "A", PromptTokens: 1, MaxNewTokens: 1}.Validate())
	assert.Equal(t, DefaultMaxNewTokens, Request{}.maxNewTokens(), "SamplingParams' default")
}
