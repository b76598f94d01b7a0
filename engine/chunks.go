package engine

// chunks is a slice that grows by blocks of n elements instead of copies:
// what a run keeps for as long as the tab lives (its log, its responses).
//
// The wasm's memory never shrinks. Kept as one slice, each growth copied
// it into a block a quarter larger that no block freed before could hold,
// so the heap grew by the sum of them: over 1,000 requests at 681,280
// pages, the log alone (10,000 events, 1.5 MB) left about 5 MB of wasm
// memory in free blocks too small for the next copy. Full blocks are never
// copied, and a freed one (another run's) fits the next. The first block
// grows as a slice does, up to n, so that a short run stays small.
type chunks[T any] struct {
	blocks [][]T // each of capacity n but the first, all full but the last
	len    int
}

// at is element i, in place: a block never moves.
func (c *chunks[T]) at(i, n int) *T { return &c.blocks[i/n][i%n] }

// add appends v and returns it in place.
func (c *chunks[T]) add(v T, n int) *T {
	switch {
	case c.len == 0:
		c.blocks = [][]T{make([]T, 0, min(n, 8))}
	case c.len%n == 0:
		c.blocks = append(c.blocks, make([]T, 0, n))
	}
	b := &c.blocks[len(c.blocks)-1]
	if len(*b) == cap(*b) { // the first block, short of n
		grown := make([]T, len(*b), min(n, 2*cap(*b)))
		copy(grown, *b)
		*b = grown
	}
	*b = append(*b, v)
	c.len++
	return &(*b)[len(*b)-1]
}

// copyTo appends the first m elements to out.
func (c *chunks[T]) copyTo(out []T, m, n int) []T {
	for i := 0; i < m; i += n {
		out = append(out, c.blocks[i/n][:min(n, m-i)]...)
	}
	return out
}
