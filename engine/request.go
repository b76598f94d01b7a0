package engine

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Limits on a request's fields and on an engine's history, so that no input
// can exhaust memory.
const (
	MaxTenantLen    = 32
	MaxContentLen   = 200
	MaxPromptTokens = MaxContextTokens * 4
	MaxTenants      = 64
	MaxRequests     = 20_000
)

// Request is one call to the chat API.
type Request struct {
	Tenant       string `json:"tenant"`
	PromptTokens int    `json:"tokens"`
	// Content is the text each KV page the request writes holds, so that any
	// one leaked page shows it in full.
	Content string `json:"content,omitempty"`
	// CancelAt, when set, makes the client cancel while the request is at
	// that stage (one of CancelStages), before the stage completes.
	CancelAt Stage `json:"cancelAt,omitempty"`
	// FailTransfer makes the KV transfer fail (KVPoll.Failed).
	FailTransfer bool `json:"failTransfer,omitempty"`
	// MaxNewTokens is sampling_params.max_new_tokens as the client sent
	// it; 0 means not sent, and then the API's total check does not run
	// (tokenizer_manager.py _validate_one_request reads
	// sampling_params.get("max_new_tokens")) and the scheduler uses
	// SGLang's default, DefaultMaxNewTokens (SamplingParams).
	MaxNewTokens int `json:"maxNew,omitempty"`
}

// DefaultMaxNewTokens is SamplingParams.max_new_tokens's default
// (python/sglang/srt/sampling/sampling_params.py).
const DefaultMaxNewTokens = 128

// maxNewTokens is max_new_tokens as the scheduler sees it.
func (r Request) maxNewTokens() int {
	if r.MaxNewTokens == 0 {
		return DefaultMaxNewTokens
	}
	return r.MaxNewTokens
}

// RequestError names the request field that is not allowed.
type RequestError struct {
	Field string // "tenant", "tokens", "content", "maxNew", "cancelAt" or "requests"
	Msg   string
}

func (e *RequestError) Error() string { return e.Msg }

// Validate reports the first field of r that the engine cannot take.
func (r Request) Validate() error {
	if err := checkText("tenant", "tenant name", r.Tenant, 1, MaxTenantLen); err != nil {
		return err
	}
	if err := checkText("content", "content", r.Content, 0, MaxContentLen); err != nil {
		return err
	}
	if r.PromptTokens < 1 || r.PromptTokens > MaxPromptTokens {
		return &RequestError{"tokens", fmt.Sprintf("prompt length %s: must be between 1 and %s tokens", th(r.PromptTokens), th(MaxPromptTokens))}
	}
	if r.MaxNewTokens < 0 || r.MaxNewTokens > MaxContextTokens {
		return &RequestError{"maxNew", fmt.Sprintf("max_new_tokens %s: must be between 1 and %s tokens, or empty for SGLang's default (%d)", th(r.MaxNewTokens), th(MaxContextTokens), DefaultMaxNewTokens)}
	}
	if r.CancelAt != "" && !cancelStage(r.CancelAt) {
		return &RequestError{"cancelAt", fmt.Sprintf("cancel stage %q: must be one of the pipeline stages from prefill.bootstrap to decode.running", string(r.CancelAt))}
	}
	if r.CancelAt != "" && r.FailTransfer {
		return &RequestError{"cancelAt", "a request can end early in one way only: cancel or fail the transfer, not both"}
	}
	return nil
}

// checkText accepts printable UTF-8 of lo to hi characters.
func checkText(field, label, s string, lo, hi int) error {
	if !utf8.ValidString(s) {
		return &RequestError{field, label + " is not valid UTF-8"}
	}
	n := utf8.RuneCountInString(s)
	if n < lo || n > hi {
		if lo > 0 && n == 0 {
			return &RequestError{field, label + " is empty"}
		}
		return &RequestError{field, fmt.Sprintf("%s has %d characters: at most %d allowed", label, n, hi)}
	}
	for _, c := range s {
		if !unicode.IsPrint(c) {
			return &RequestError{field, fmt.Sprintf("%s contains a control or invisible character (%U)", label, c)}
		}
	}
	return nil
}

// pageText is what a page written by a request holds.
func pageText(tenant, content string) string {
	return "tenant-" + tenant + ":" + pageContent(content)
}

// pageContent is the text a page echoes, without the tenant label.
func pageContent(content string) string {
	if content == "" {
		return "prompt"
	}
	return content
}

// PlaceholderContent is what the one-token placeholder writes.
const PlaceholderContent = "<placeholder-token>"
