package replay

import (
	"fmt"
	"time"
)

// Timing is the replay's own model of how long a request holds decode's
// pages; SGLang's scheduler is not simulated. Both are settable, and the
// result says which were used.
type Timing struct {
	// PrefillTokensPerSecond is prefill's throughput: it runs one request
	// at a time, its prompt (or its one placeholder token) at this rate.
	PrefillTokensPerSecond float64
	// SecondsPerOutputToken is decode's time per output token.
	SecondsPerOutputToken float64
}

// DefaultTiming is the replay's assumption when none is given: a prefill
// server of 20,000 tokens a second and 30 ms per output token — round
// figures of the order a large model serves at, not measurements.
var DefaultTiming = Timing{PrefillTokensPerSecond: 20_000, SecondsPerOutputToken: 0.03}

// Check refuses timings the replay cannot use.
func (t Timing) Check() error {
	if !(t.PrefillTokensPerSecond >= 1 && t.PrefillTokensPerSecond <= 1e9) {
		return fmt.Errorf("prefill throughput %g tokens/s: must be between 1 and 1,000,000,000", t.PrefillTokensPerSecond)
	}
	if !(t.SecondsPerOutputToken >= 0 && t.SecondsPerOutputToken <= 60) {
		return fmt.Errorf("time per output token %g s: must be between 0 and 60", t.SecondsPerOutputToken)
	}
	return nil
}

// Note says what the timing assumes.
func (t Timing) Note() string {
	return fmt.Sprintf("Timing is the replay's own model: prefill runs one request at a time at %s tokens/s; decode takes %s ms per output token; a request holds decode's pages from its prealloc to its last token, and waits in DecodePreallocQueue while the pool is full.",
		thousands(int(t.PrefillTokensPerSecond)), trimFloat(t.SecondsPerOutputToken*1000))
}

func (t Timing) prefill(tokens int) time.Duration {
	return time.Duration(float64(tokens) / t.PrefillTokensPerSecond * float64(time.Second))
}

func (t Timing) decode(tokens int) time.Duration {
	return time.Duration(float64(tokens) * t.SecondsPerOutputToken * float64(time.Second))
}

// trimFloat is a figure without trailing zeros: "30", "12.5".
func trimFloat(v float64) string { return fmt.Sprintf("%.4g", v) }
