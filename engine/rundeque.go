package engine

// runDeque is a ring buffer of runs that can grow at both ends and merges a
// run into its neighbour when the two are contiguous.
type runDeque struct {
	buf  []Run
	head int
	n    int
}

func (d *runDeque) at(i int) *Run { return &d.buf[(d.head+i)%len(d.buf)] }

func (d *runDeque) front() *Run { return d.at(0) }

func (d *runDeque) popFront() {
	d.head = (d.head + 1) % len(d.buf)
	d.n--
}

func (d *runDeque) grow() {
	if d.n < len(d.buf) {
		return
	}
	buf := make([]Run, max(8, 2*len(d.buf)))
	for i := range d.n {
		buf[i] = *d.at(i)
	}
	d.buf, d.head = buf, 0
}

func (d *runDeque) pushBack(r Run) {
	if d.n > 0 {
		if last := d.at(d.n - 1); last.First+last.Count == r.First {
			last.Count += r.Count
			return
		}
	}
	d.grow()
	*d.at(d.n) = r
	d.n++
}

func (d *runDeque) pushFront(r Run) {
	if d.n > 0 {
		if first := d.front(); r.First+r.Count == first.First {
			first.First, first.Count = r.First, first.Count+r.Count
			return
		}
	}
	d.grow()
	d.head = (d.head - 1 + len(d.buf)) % len(d.buf)
	d.buf[d.head] = r
	d.n++
}
