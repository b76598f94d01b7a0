package model

import (
	"fmt"
	"slices"
	"strconv"

	"kvleak/challenge"
	"kvleak/permalink"
)

// View is how a run is shown, as opposed to which run it is: its keys (the
// view keys of permalink's doc) go with any link, and a link that names no
// run but has them opens the default scenario shown that way.
type View struct {
	Compare  bool   // the side-by-side engines
	Embed    bool   // the compact view for iframes
	ReadOnly bool   // an embed without controls
	Panel    string // an embed of one panel only (Panels), "" for all
	Theme    string // a forced colour scheme (Themes), "" for the reader's
	Tour     int    // the guided tour's card (1…len(TourCards())), 0 when closed
	// Challenge is the open challenge of the ladder (1…), 0 when none.
	Challenge int
}

// Panels are the single panels an embed can show.
var Panels = []string{"pipeline", "pool", "compare", "transcript", "challenge"}

// Themes are the colour schemes a link can force.
var Themes = []string{"light", "dark"}

// keys are the view's link parameters, in a fixed order.
func (v View) keys() []string {
	var out []string
	flag := func(on bool, key string) {
		if on {
			out = append(out, key+"=1")
		}
	}
	flag(v.Compare, "compare")
	flag(v.Embed, "embed")
	flag(v.Embed && v.ReadOnly, "ro")
	if v.Panel != "" {
		out = append(out, "view="+v.Panel)
	}
	if v.Theme != "" {
		out = append(out, "theme="+v.Theme)
	}
	if v.Tour > 0 {
		out = append(out, "tour="+strconv.Itoa(v.Tour))
	}
	if v.Challenge > 0 {
		out = append(out, "challenge="+strconv.Itoa(v.Challenge))
	}
	return out
}

// set reads one view parameter (permalink.DecodeLink hands them over); a
// bad value is refused with a message.
func (v *View) set(key, val string) error {
	switch key {
	case "compare", "embed", "ro":
		if val != "0" && val != "1" {
			return fmt.Errorf("parameter %s=%q: must be 0 or 1", key, permalink.Clip(val))
		}
		on := val == "1"
		switch key {
		case "compare":
			v.Compare = on
		case "embed":
			v.Embed = on
		default:
			v.ReadOnly = on
		}
	case "view":
		if !slices.Contains(Panels, val) {
			return fmt.Errorf("parameter view=%q: must be one of %v", permalink.Clip(val), Panels)
		}
		v.Panel = val
	case "theme":
		if !slices.Contains(Themes, val) {
			return fmt.Errorf("parameter theme=%q: must be light or dark", permalink.Clip(val))
		}
		v.Theme = val
	case "tour":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > len(TourCards()) {
			return fmt.Errorf("parameter tour=%q: the tour has cards 1 to %d", permalink.Clip(val), len(TourCards()))
		}
		v.Tour = n
	case "challenge":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > len(challenge.Ladder()) {
			return fmt.Errorf("parameter challenge=%q: the ladder has challenges 1 to %d", permalink.Clip(val), len(challenge.Ladder()))
		}
		v.Challenge = n
	}
	return nil
}
