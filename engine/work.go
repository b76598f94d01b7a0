package engine

// MaxReplayWork bounds the pages an imported run's sends may touch in total:
// a file of a few kilobytes (a pool of 4 Mi one-token pages, prompts that
// fill it) would otherwise replay for minutes and freeze the tab. It is the
// permalink's bound, so any run a link can carry imports too.
const MaxReplayWork = 8_000_000

// ReplayWork estimates the pages ops touch when replayed on cfg: each send
// the API passes allocates decode's pages for the prompt as decode's intake
// sees it (ReservedPages) and prefill's for the prompt as prefill's sees it
// (one page for a placeholder). It counts the larger of the two, as it
// counted the one pool's pages before the engine had two: the other
// server's work is at most as much again. Each send counts one more.
func ReplayWork(cfg Config, ops []Op) int64 {
	if cfg.PageTokens < 1 {
		return 0
	}
	prefill := cfg.LimitsOf(ServerPrefill)
	var w int64
	for _, op := range ops {
		if op.Send == nil {
			continue
		}
		n := min(max(op.Send.PromptTokens, 1), MaxPromptTokens)
		pages := 0
		if !prefill.OverAPI(n) {
			built := n
			if prefill.Rejects(n) {
				built = 1
			}
			pages = max(cfg.ReservedPages(n), (built+cfg.PageTokens-1)/cfg.PageTokens)
		}
		w += int64(max(pages, 0)) + 1
	}
	return w
}
