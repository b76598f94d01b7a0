package engine

// MaxReplayWork bounds the pages an imported run's sends may touch in total:
// a file of a few kilobytes (a pool of 4 Mi one-token pages, prompts that
// fill it) would otherwise replay for minutes and freeze the tab. It is the
// permalink's bound, so any run a link can carry imports too.
const MaxReplayWork = 8_000_000

// ReplayWork estimates the pages ops touch when replayed on cfg: each send
// reserves, writes and reads decode's pages for the prompt as decode sees
// it, and prefill's for its forward pass.
func ReplayWork(cfg Config, ops []Op) int64 {
	if cfg.PageTokens < 1 {
		return 0
	}
	var w int64
	for _, op := range ops {
		if op.Send != nil {
			tok := min(op.Send.PromptTokens, cfg.PoolTokens, max(cfg.DecodePoolTokens, 1))
			w += int64(2*(tok/cfg.PageTokens) + 2)
		}
	}
	return w
}
