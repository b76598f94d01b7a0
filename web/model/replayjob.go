package model

import (
	"io"

	"kvleak/replay"
)

// ReplayJob is a replay the page runs a chunk at a time (Step), so that it
// can paint between chunks, and whose progress is the bytes of the log
// read so far.
type ReplayJob struct {
	rp   *replay.Replay
	in   *countingReader
	size int64
	// pairs and tenants are the files kvleak replay -pairs and -tenants
	// write, made as the replay streams.
	pairs, tenants appender
}

// StartReplay checks the log's first line and returns the job; size is
// the log's length in bytes, for the progress bar. An error is a log that
// cannot be replayed, in words for the reader.
func StartReplay(r io.Reader, size int64, opts replay.Options) (*ReplayJob, error) {
	j := &ReplayJob{in: &countingReader{r: r}, size: size}
	opts.Files = replay.Files{Pairs: &j.pairs, Tenants: &j.tenants}
	rp, err := replay.New(j.in, opts)
	if err != nil {
		return nil, err
	}
	j.rp = rp
	return j, nil
}

// ReplayFiles are a replay's files of whom to tell, as the Replay panel
// downloads them: the bytes of kvleak replay -pairs and -tenants.
type ReplayFiles struct {
	Pairs, Tenants []byte
}

// The files' names when downloaded.
const (
	ReplayPairsFile   = "kvleak-pairs.csv"
	ReplayTenantsFile = "kvleak-tenants.csv"
)

// Files are the job's files, complete once Step returned true.
func (j *ReplayJob) Files() ReplayFiles { return ReplayFiles{Pairs: j.pairs, Tenants: j.tenants} }

// appender is a file in memory: bytes.Buffer's reading half would come to
// the wasm with it.
type appender []byte

func (a *appender) Write(p []byte) (int, error) {
	*a = append(*a, p...)
	return len(p), nil
}

// Step replays up to n more requests: true once the log is done.
func (j *ReplayJob) Step(n int) (bool, error) { return j.rp.Step(n) }

// ReplayProgress is how far a job has read its log.
type ReplayProgress struct {
	Read, Size int64 // bytes
	Requests   int
}

// Progress is how far the job is.
func (j *ReplayJob) Progress() ReplayProgress {
	return ReplayProgress{Read: min(j.in.n, j.size), Size: j.size, Requests: j.rp.Requests()}
}

// Result is the replay's result, complete once Step returned true.
func (j *ReplayJob) Result() replay.Result { return j.rp.Result() }

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
