package engine

import "fmt"

// ClipMaxNewTokens is SGLang's CLIP_MAX_NEW_TOKEN
// (SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION, 4096 by default): the most of a
// request's max_new_tokens that decode's budget counts.
const ClipMaxNewTokens = 4096

// Budget is decode's pool as DecodePreallocQueue.pop_preallocated
// (disaggregation/decode.py) weighs it before it preallocates the request
// at the head of its queue.
type Budget struct {
	// Available is available_size(): the tokens of free_pages and
	// release_pages.
	Available int
	// Active is how many requests run, wait for their transfer or wait to
	// run on decode (_active_req_count); each keeps the reserve in hand.
	Active int
	// Retractable is the tokens of the running batch's requests, which
	// decode could retract to make room; NeedSingle is
	// _need_space_for_single_req, the most one of them may still need.
	Retractable, NeedSingle int
}

// Allocatable is _allocatable_token_budgets: what is available once every
// active request's reserve, or the most one running request still needs,
// is kept in hand.
func (b Budget) Allocatable(reserve int) int {
	return b.Available - max(reserve*b.Active, b.NeedSingle)
}

// BudgetCheck is pop_preallocated's check of one request: both what it
// preallocates with its reserve, and its prompt with the output decode
// may grow it by, must fit what is allocatable; the first request that
// does not fit stops the queue (break), and it waits.
type BudgetCheck struct {
	Fill, Reserve, MaxNew  int
	Page                   int
	Available, Allocatable int
	Retractable            int
}

// Check weighs a request of fill tokens (fill_len) whose max_new_tokens,
// after init_req_max_new_tokens, is maxNew, in pages of page tokens.
func (b Budget) Check(fill, maxNew, reserve, page int) BudgetCheck {
	return BudgetCheck{Fill: fill, Reserve: reserve, MaxNew: maxNew, Page: max(page, 1), Available: b.Available, Allocatable: b.Allocatable(reserve), Retractable: b.Retractable}
}

// required is _admission_required_tokens for a fresh request: its pages,
// and what of the reserve the last page's tail does not already cover —
// max(fill_len + reserve, fill_len in whole pages).
func (c BudgetCheck) required() int {
	paged := (c.Fill + c.Page - 1) / c.Page * c.Page
	return max(c.Fill+c.Reserve, paged)
}

// growth is the second term: the prompt plus the output decode may grow
// it by (clipped), less what the running batch could give back.
func (c BudgetCheck) growth() int {
	return c.Fill + min(c.MaxNew, ClipMaxNewTokens) - c.Retractable
}

// Fits reports whether the request is preallocated now.
func (c BudgetCheck) Fits() bool {
	return max(c.required(), c.growth()) <= c.Allocatable
}

// String says the check in numbers: "125 + 32 reserved ≤ 160 free" when it
// fits, "125 + 512 reserved > 160 free" when the reserve stops it, or the
// growth term when that does ("allocatable" when other requests' reserves
// are kept in hand).
func (c BudgetCheck) String() string {
	free := "free"
	if c.Allocatable != c.Available {
		free = "allocatable"
	}
	switch {
	case c.required() > c.Allocatable:
		return fmt.Sprintf("%s + %s reserved > %s %s", th(c.Fill), th(c.Reserve), th(c.Allocatable), free)
	case c.growth() > c.Allocatable:
		return fmt.Sprintf("%s + %s max_new_tokens > %s %s", th(c.Fill), th(min(c.MaxNew, ClipMaxNewTokens)), th(c.Allocatable), free)
	}
	return fmt.Sprintf("%s + %s reserved ≤ %s %s", th(c.Fill), th(c.Reserve), th(c.Allocatable), free)
}
