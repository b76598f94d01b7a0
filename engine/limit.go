package engine

import "fmt"

// Server is one half of a prefill/decode pair. Each has its own KV pool and
// derives its own prompt limit from it.
type Server string

const (
	ServerPrefill Server = "prefill"
	ServerDecode  Server = "decode"
)

// Servers lists the two halves in pipeline order.
var Servers = []Server{ServerPrefill, ServerDecode}

// Limits is what one server's validate_input_length derives from the running
// engine, not from a spec sheet (python/sglang/srt/managers/tp_worker.py sets
// max_req_len, scheduler.py max_req_input_len; managers/utils.py
// validate_input_length compares against it).
type Limits struct {
	// ContextTokens is the server's context_len.
	ContextTokens int `json:"context"`
	// PoolTokens is max_total_num_tokens: the KV pool in whole pages' tokens.
	PoolTokens int `json:"pool"`
	// PageTokens is the page size (0: not known, as 1).
	PageTokens int `json:"-"`
}

// reqInputHeadroom is the 5 tokens max_req_input_len keeps below max_req_len.
const reqInputHeadroom = 5

// NewLimits is a server's limits for a pool of poolTokens, aligned down to
// whole pages of pageTokens as SGLang aligns max_total_num_tokens.
func NewLimits(contextTokens, poolTokens, pageTokens int) Limits {
	if pageTokens > 0 {
		poolTokens = poolTokens / pageTokens * pageTokens
	}
	return Limits{ContextTokens: contextTokens, PoolTokens: poolTokens, PageTokens: pageTokens}
}

// ClampMaxNew is Scheduler.init_req_max_new_tokens (managers/scheduler.py,
// #25126), which every server runs on a request before
// validate_input_length: max_new_tokens shrinks so that the prompt, in
// whole pages, plus its output and one page more fit the pool, and the
// prompt plus its output fit max_req_len. maxNew is what the client sent
// (0: not sent, SamplingParams' default).
func (l Limits) ClampMaxNew(n, maxNew int) int {
	if maxNew == 0 {
		maxNew = DefaultMaxNewTokens
	}
	page := max(l.PageTokens, 1)
	paged := (n + page - 1) / page * page
	return max(0, min(maxNew, l.MaxReqLen()-n-1, l.PoolTokens-paged-page-1))
}

// MaxReqLen is max_req_len: min(context_len − 1, max_total_num_tokens − 1).
func (l Limits) MaxReqLen() int { return min(l.ContextTokens-1, l.PoolTokens-1) }

// MaxReqInputLen is max_req_input_len = max_req_len − 5: a prompt of this
// many tokens or more is rejected (set_finish_with_abort). The longest prompt
// read in full is one token less: min(context, pool) − 7.
func (l Limits) MaxReqInputLen() int { return l.MaxReqLen() - reqInputHeadroom }

// OverAPI reports whether the tokenizer manager refuses n tokens outright:
// input_tokens >= context_len.
func (l Limits) OverAPI(n int) bool { return n >= l.ContextTokens }

// OverTotal reports whether the tokenizer manager refuses a prompt of n
// tokens with maxNew max_new_tokens sent: max_new_tokens + input >
// context_len (_validate_one_request, validate_total_tokens). Older
// releases refused at >=; the stored source reads >. Nothing is checked
// when the client sent no max_new_tokens (maxNew 0).
func (l Limits) OverTotal(n, maxNew int) bool { return maxNew > 0 && maxNew+n > l.ContextTokens }

// Rejects reports whether validate_input_length rejects n tokens.
func (l Limits) Rejects(n int) bool { return n >= l.MaxReqInputLen() }

// Words shows how max_req_input_len comes from the running engine.
func (l Limits) Words() string {
	return fmt.Sprintf("min(context %s − 1, pool %s − 1) − 5", th(l.ContextTokens), th(l.PoolTokens))
}

// Window is a range of prompt lengths, First to Last tokens inclusive;
// it is empty (closed) when First > Last.
type Window struct {
	First int `json:"first"`
	Last  int `json:"last"`
}

// Open reports whether the window holds any prompt length.
func (w Window) Open() bool { return w.First <= w.Last }

// Len is how many prompt lengths the window holds.
func (w Window) Len() int { return max(w.Last-w.First+1, 0) }

// Contains reports whether a prompt of n tokens is in the window.
func (w Window) Contains(n int) bool { return n >= w.First && n <= w.Last }

// String is "681,274–1,048,569 tokens", or "closed".
func (w Window) String() string {
	if !w.Open() {
		return "closed"
	}
	if w.First == w.Last {
		return th(w.First) + " tokens"
	}
	return th(w.First) + "–" + th(w.Last) + " tokens"
}

// LeakWindow is the prompt lengths that reach both servers' intake (below
// both context lengths), that prefill's validate_input_length rejects — its
// prompt becomes the one-token placeholder — and that decode's admits, so
// that decode reserves, commits and attends over the whole prompt while
// prefill transfers one token (sgl-project/sglang#30233).
func LeakWindow(prefill, decode Limits) Window {
	return Window{
		First: max(prefill.MaxReqInputLen(), 1),
		Last:  min(prefill.ContextTokens, decode.ContextTokens, decode.MaxReqInputLen()) - 1,
	}
}

// apiMessage is the tokenizer manager's refusal, as SGLang words it.
func apiMessage(n, context int) string {
	return fmt.Sprintf("The input (%d tokens) is longer than the model's context length (%d tokens).", n, context)
}

// totalMessage is the tokenizer manager's refusal of input plus
// max_new_tokens, as SGLang words it.
func totalMessage(n, maxNew, context int) string {
	return fmt.Sprintf("Requested token count exceeds the model's maximum context length of %d tokens. You requested a total of %d tokens: %d tokens from the input messages and %d tokens for the completion. Please reduce the number of tokens in the input messages or the completion to fit within the limit.", context, n+maxNew, n, maxNew)
}

// inputLengthMessage is validate_input_length's error, as SGLang words it.
func inputLengthMessage(n, maxInput int) string {
	return fmt.Sprintf("Input length (%d tokens) exceeds the maximum allowed length (%d tokens). Use a shorter input or enable --allow-auto-truncate.", n, maxInput)
}

// ArticleRejection is how the article's demo words the fixed engine's 400;
// the engine's own reason is SGLang's inputLengthMessage.
const ArticleRejection = "request rejected (context length exceeds KV pool capacity)"
