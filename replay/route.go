package replay

import "fmt"

// route is the instance (from 0) the router sends r to: the one a hash of
// its session picks when the log names one, so that a session stays on one
// instance, as a consistent-hashing router keeps it on one worker; else the
// next in turn (round-robin). Both are the replay's own: SGLang's router
// offers round_robin among its policies, and its default, cache_aware,
// follows prompt prefixes, which the replay does not model.
func (rp *Replay) route(r Request) int {
	n := rp.opts.Instances
	if n <= 1 {
		return 0
	}
	if r.Session != "" {
		rp.sessions++
		h := uint64(14695981039346656037) // FNV-1a
		for i := range len(r.Session) {
			h ^= uint64(r.Session[i])
			h *= 1099511628211
		}
		return int(h % uint64(n))
	}
	i := rp.rr
	rp.rr = (rp.rr + 1) % n
	return i
}

// routeNote says how the log was spread.
func (rp *Replay) routeNote() string {
	how := "round-robin"
	if rp.sessions > 0 {
		how = fmt.Sprintf("round-robin, except the %s requests that name a session, which a hash of the session keeps on one instance", thousands(rp.sessions))
	}
	return fmt.Sprintf("The log is spread over %s prefill/decode instances, each with its own two pools and prefill queue, %s: the router is the replay's own (SGLang's router offers round_robin; its default, cache_aware, follows prompt prefixes, which are not modelled). A request's prefill and decode halves are served on one instance; each leak names its instance.",
		thousands(rp.opts.Instances), how)
}
