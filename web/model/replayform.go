package model

import (
	"math"
	"strconv"
	"strings"

	"kvleak/engine"
	"kvleak/permalink"
	"kvleak/replay"
)

// ReplayForm is the Replay panel's settings as typed: who sent the log's
// requests where it names no tenant, and the replay's timing model.
type ReplayForm struct {
	Shared     bool   // N tenants by a seeded hash; false: each request its own tenant
	Tenants    string // N, when Shared
	Seed       string
	PrefillTPS string // prefill's throughput, tokens a second
	TPOTms     string // decode's time per output token, milliseconds
	Instances  string // prefill/decode pairs behind the router
}

// The Replay panel's fields, by DOM id: the keys of ReplayForm.Check's
// messages.
const (
	ReplayTenantsID = "replay-tenants"
	ReplaySeedID    = "replay-seed"
	ReplayTPSID     = "replay-prefill-tps"
	ReplayTPOTID    = "replay-tpot"
	ReplayInstID    = "replay-instances"
)

// DefaultReplayForm is replay's own defaults, as `kvleak replay` takes them.
func DefaultReplayForm() ReplayForm {
	t := replay.DefaultTiming
	return ReplayForm{
		Tenants: "8", Seed: "0",
		PrefillTPS: engine.Thousands(int64(t.PrefillTokensPerSecond)),
		TPOTms:     strconv.FormatFloat(t.SecondsPerOutputToken*1000, 'f', -1, 64),
		Instances:  "1",
	}
}

// Options reads the form at the page's settings cfg. A field it refuses
// has a message under its id; the options are then not to be used.
func (f ReplayForm) Options(cfg engine.Config) (replay.Options, map[string]string) {
	opts := replay.Options{Config: cfg}
	if cfg.Mode == engine.Upstream {
		// The page is on SGLang's door: the fixed side is that door, as
		// kvleak replay -fix upstream; otherwise Cloudflare's patch.
		opts.Fix = engine.Upstream
	}
	errs := map[string]string{}
	if f.Shared {
		if n, err := permalink.ParseCount(f.Tenants); err != nil {
			errs[ReplayTenantsID] = "Tenants: " + err.Error()
		} else {
			opts.Tenancy.Tenants = n
			if err := opts.Tenancy.Check(); err != nil {
				errs[ReplayTenantsID] = "Tenants: " + err.Error()
			}
		}
		if seed, err := parseSeed(f.Seed); err != nil {
			errs[ReplaySeedID] = "Seed: " + err.Error()
		} else {
			opts.Tenancy.Seed = seed
		}
	}
	tps, tpsErr := parseDecimal(f.PrefillTPS)
	tpot, tpotErr := parseDecimal(f.TPOTms)
	opts.Timing = replay.Timing{PrefillTokensPerSecond: tps, SecondsPerOutputToken: tpot / 1000}
	switch {
	case tpsErr != nil:
		errs[ReplayTPSID] = "Prefill throughput: " + tpsErr.Error()
	case (replay.Timing{PrefillTokensPerSecond: tps}).Check() != nil:
		errs[ReplayTPSID] = (replay.Timing{PrefillTokensPerSecond: tps}).Check().Error()
	}
	switch {
	case tpotErr != nil:
		errs[ReplayTPOTID] = "Time per output token: " + tpotErr.Error()
	case (replay.Timing{PrefillTokensPerSecond: 1, SecondsPerOutputToken: tpot / 1000}).Check() != nil:
		errs[ReplayTPOTID] = (replay.Timing{PrefillTokensPerSecond: 1, SecondsPerOutputToken: tpot / 1000}).Check().Error()
	}
	if n, err := permalink.ParseCount(f.Instances); err != nil {
		errs[ReplayInstID] = "Instances: " + err.Error()
	} else if n > replay.MaxInstances {
		errs[ReplayInstID] = "Instances: at most " + engine.Thousands(replay.MaxInstances)
	} else {
		opts.Instances = n
	}
	if len(errs) > 0 {
		return opts, errs
	}
	return opts, nil
}

// parseSeed reads a whole number from 0 up, with the separators
// ParseCount takes.
func parseSeed(text string) (uint64, error) {
	s := strings.NewReplacer(",", "", "_", "", " ", "", "\u00a0", "").Replace(strings.TrimSpace(text))
	if s == "" {
		return 0, errSeed
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, errSeed
	}
	return n, nil
}

var errSeed = fieldErr("enter a whole number from 0, e.g. 0 or 42")

// parseDecimal reads a number that may have a fraction of up to six
// places and thousands separators: "20,000", "30", "12.5". It reads the
// digits itself: strconv.ParseFloat would add its tables to the wasm.
func parseDecimal(text string) (float64, error) {
	s := strings.NewReplacer(",", "", "_", "", " ", "", "\u00a0", "").Replace(strings.TrimSpace(text))
	if s == "" {
		return 0, fieldErr("enter a number, e.g. 20,000 or 12.5")
	}
	whole, frac, dotted := strings.Cut(s, ".")
	if whole+frac == "" || strings.Trim(whole+frac, "0123456789") != "" || dotted && frac == "" {
		return 0, fieldErr("not a number: use digits and at most one point, e.g. 20,000 or 12.5")
	}
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > 12 || len(frac) > 6 {
		return 0, fieldErr("that number is too long: at most 12 digits, and 6 after the point")
	}
	n, _ := strconv.ParseInt("0"+whole+frac, 10, 64)
	return float64(n) / math.Pow10(len(frac)), nil
}

type fieldErr string

func (e fieldErr) Error() string { return string(e) }
