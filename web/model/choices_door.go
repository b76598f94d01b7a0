package model

import (
	"fmt"
	"strings"

	"kvleak/engine"
)

// The door's fieldset and the defences' choices, in the engine's words,
// which say what is SGLang's and what the simulation's illustration.

// SetItem is one checkbox of a KindSet setting.
type SetItem struct {
	Value, Label string
	On           bool
	// Retired and Unchecked say what happens with the box on and off;
	// Preset is the scenario that shows it off.
	Retired, Unchecked string
	Preset, PresetName string
}

// The door's presets: the two doors of the article, and following the
// admission mode (what a link without a door key means).
const (
	DoorVulnerable = "none"
	DoorFixed      = "all"
)

func doorOptions() []Option {
	return []Option{
		{DoorVulnerable, "checks only finished(): retires nothing pending (the simulation's worst case)"},
		{DoorFixed, "fixed door: retires all"},
		{engine.DoorFromMode, "as the admission mode retires"},
	}
}

func doorItems(c engine.Config) []SetItem {
	set := c.Retires()
	var out []SetItem
	for _, in := range engine.PendingInfos() {
		p, _ := engine.PresetBySlug(in.Preset)
		out = append(out, SetItem{Value: string(in.State), Label: in.Label, On: set.Has(in.State),
			Retired: in.Retired, Unchecked: in.Unchecked, Preset: in.Preset, PresetName: p.Name})
	}
	return out
}

// DoorWith is the Door value with one state's box turned on or off, from
// the set the door retires now.
func DoorWith(c engine.Config, state string, on bool) string {
	return c.Retires().With(engine.PendingState(state), on).String()
}

// Toggled is a KindSet setting's value with one box turned on or off, read
// from the boxes the view shows.
func (v SettingView) Toggled(value string, on bool) string {
	var set engine.RetireSet
	for _, it := range v.Set {
		set = set.With(engine.PendingState(it.Value), it.On)
	}
	return set.With(engine.PendingState(value), on).String()
}

func doorHint(c engine.Config) string {
	from := "set here"
	if c.Door == engine.DoorFromMode {
		from = fmt.Sprintf("as the %s admission mode retires", c.Mode)
	}
	return fmt.Sprintf("The door is the admission queues' check (PrefillBootstrapQueue, DecodePreallocQueue) that lets a request in or retires it. It retires %s (%s). Before #38704 SGLang's door checked only finished(); prepare_abort already marked a failed transfer or an abort finished, so only the pending rejection walked through. The length check before commit is the admission mode's part.",
		retiredWords(c.Retires()), from)
}

// retiredWords names a set of pending states in words: "a failed transfer,
// an abort and a cancel", "nothing pending".
func retiredWords(set engine.RetireSet) string {
	words := map[engine.PendingState]string{
		engine.PendingRejected: "a pending rejection", engine.PendingErrored: "a failed transfer",
		engine.PendingAborted: "an abort", engine.PendingCancelled: "a cancel",
	}
	var parts []string
	for _, p := range engine.PendingStates {
		if set.Has(p) {
			parts = append(parts, words[p])
		}
	}
	switch len(parts) {
	case 0:
		return "nothing pending"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func gatewayOptions() []Option {
	return []Option{
		{string(engine.GatewayOff), "off"},
		{string(engine.GatewayAlert), "alert: count it, deliver the response"},
		{string(engine.GatewayBlock), "block: replace the response with a 502"},
	}
}

// GatewayBlindSpot is what the gateway cannot see, said beside it.
const GatewayBlindSpot = "What it cannot see: in a real model leaked KV shows up as text conditioned on another tenant's context, not as that context's words; the gateway catches it only when the model echoes them. Here every leaked page echoes its writer's prompt, so it catches what the simulation shows — except text that both tenants sent."

func gatewayHint(g engine.GatewayMode) string {
	what := "Off: responses pass unread."
	if g == engine.GatewayAlert || g == engine.GatewayBlock {
		what = fmt.Sprintf("It keeps, per tenant, fingerprints of its last %d prompts (hashes, not texts) and compares each response's text with them: content fingerprinted from another tenant %s. Cost: one lookup per response segment and tenant.",
			engine.GatewayPrints, map[engine.GatewayMode]string{engine.GatewayAlert: "counts an alert", engine.GatewayBlock: "replaces the response with a 502 and a message"}[g])
	}
	return "The simulation's illustration of a gateway in front of a shared backend. " + what + " " + GatewayBlindSpot
}

const writerCheckHint = "The simulation's illustration of the article's third question: before it attends, decode compares the last writer of every page with the request and aborts with 500 on a mismatch. It catches the stale pages and the late write alike, at one metadata read per page on every request — but not stale positions past a write that ended inside a page. SGLang's nearest defence is the opt-in KV-transfer checksum (--disaggregation-enable-kv-checksum, PR #39500, merged 2026-09-15), which aborts a request whose transferred bytes changed in transit; it does not see decode attending over positions prefill never sent."
