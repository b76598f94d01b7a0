package engine

import "fmt"

// SGLang derives the prompt limit from the running engine (tp_worker), not
// from the spec sheet: max_req_len = min(context_len - 1,
// max_total_num_tokens - 1), and validate_input_length rejects a prompt of
// max_req_input_len = max_req_len - 5 tokens or more.
const reqInputHeadroom = 5

// MaxReqLen is max_req_len: min(context - 1, pool - 1), the pool counted in
// whole pages' tokens (max_total_num_tokens).
func (c Config) MaxReqLen() int { return min(c.ContextTokens-1, c.UsableTokens()-1) }

// MaxReqInputLen is max_req_input_len: intake rejects a prompt of this many
// tokens or more. The longest prompt read in full is one token less:
// min(context, pool) - 7.
func (c Config) MaxReqInputLen() int { return c.MaxReqLen() - reqInputHeadroom }

// limits says which check a prompt of n tokens fails: the API's (n >=
// context) or validate_input_length's (n >= max_req_input_len). Under the
// legacy rule, which runs made before the real one were replayed with, a
// prompt was over the API at n > context and over the pool at n > pool.
func (e *Engine) limits(n int) (overAPI, overEngine bool) {
	c := e.cfg
	if e.legacyLimit {
		return n > c.ContextTokens, n > c.UsableTokens()
	}
	return n >= c.ContextTokens, n >= c.MaxReqInputLen()
}

// apiMessage is the tokenizer manager's refusal, as SGLang words it.
func apiMessage(n, context int) string {
	return fmt.Sprintf("The input (%d tokens) is longer than the model's context length (%d tokens).", n, context)
}

// inputLengthMessage is validate_input_length's error, as SGLang words it.
func inputLengthMessage(n, maxInput int) string {
	return fmt.Sprintf("Input length (%d tokens) exceeds the maximum allowed length (%d tokens). Use a shorter input or enable --allow-auto-truncate.", n, maxInput)
}

// ArticleRejection is how the article's demo words the fixed engine's 400;
// the engine's own reason is SGLang's inputLengthMessage.
const ArticleRejection = "request rejected (context length exceeds KV pool capacity)"

// LimitChanges replays ops under SGLang's limit and under the rule runs were
// made with before it (placeholder when prompt > pool, API refusal when
// prompt > context) and lists the requests, by number, whose outcome (path,
// state, status or leaked pages) differs. A link made before the change can
// say whether it still shows what it showed.
func LimitChanges(cfg Config, ops []Op) ([]int, error) {
	now, err := replayLoose(cfg, ops, false)
	if err != nil {
		return nil, err
	}
	old, err := replayLoose(cfg, ops, true)
	if err != nil {
		return nil, err
	}
	var changed []int
	for i, r := range now.Responses() {
		o := old.Responses()[i]
		if r.Path != o.Path || r.State != o.State || r.Status != o.Status || r.LeakedPages.Len() != o.LeakedPages.Len() {
			changed = append(changed, r.Request)
		}
	}
	return changed, nil
}

// replayLoose replays ops, skipping a settle that does not apply (the other
// rule may have left that request lingering, or not).
func replayLoose(cfg Config, ops []Op, legacy bool) (*Engine, error) {
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	e.legacyLimit = legacy
	for i, op := range ops {
		if err := e.Apply(op); err != nil && op.Settle == nil {
			return nil, fmt.Errorf("operation %d: %w", i+1, err)
		}
	}
	return e, nil
}
