package engine

// DecodePoolForSinglePool is the decode pool a configuration made before
// the engine had two pools (links of schema v1 and v2, run files of
// versions 1 and 2) is given: one that backs the advertised context, at
// least the single pool it had, in whole pages and within the bounds. Then
// every prompt the API passes reaches decode's door, as the single-pool
// engine sent them.
func DecodePoolForSinglePool(contextTokens, poolTokens, pageTokens int) int {
	if pageTokens < 1 {
		return poolTokens
	}
	backed := (contextTokens + pageTokens - 1) / pageTokens * pageTokens
	room := (MaxPoolPages - poolTokens/pageTokens) * pageTokens // what the bound on both pools leaves
	return max(min(max(poolTokens, backed), MaxPoolTokens, room), min(poolTokens, MaxPoolTokens))
}
