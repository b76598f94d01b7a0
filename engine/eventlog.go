package engine

// logChunk is how many events one block of the log holds (about 150 KB;
// see chunks).
const logChunk = 1024

// Log is a read-only view of the first Len events of an engine's log: a
// later event does not change it. Hold it instead of copying the events.
type Log struct {
	c chunks[Event]
}

// Len is the number of events in the view.
func (l Log) Len() int { return l.c.len }

// At is event i (0-based: its Step is i+1). It must not be modified.
func (l Log) At(i int) *Event {
	if i < 0 || i >= l.c.len {
		panic("engine: event index out of range")
	}
	return l.c.at(i, logChunk)
}

// Copy returns the events as one slice, for an export or a test.
func (l Log) Copy() []Event { return l.c.copyTo(make([]Event, 0, l.c.len), l.c.len, logChunk) }

// add appends ev and returns it in place, for the engine to finish it
// (Poll, Victim) before anyone reads it.
func (l *Log) add(ev Event) *Event { return l.c.add(ev, logChunk) }
