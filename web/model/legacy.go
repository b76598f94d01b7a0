package model

import (
	"errors"
	"fmt"
	"reflect"

	"kvleak/engine"
)

// migrate reads a link of version 1 or 2, made when the engine had one
// pool, as version 3: it checks and drops slot, gives decode the pool
// engine.DecodePoolForSinglePool says, gives a version 1 link the lifo
// allocator it was made with, and says so in Migrated. A link that only
// names a preset opens the preset as it is now.
func (st *LinkState) migrate(version, slot string, seen map[string]bool) error {
	for _, key := range []string{"dpool", "alloc", "tab"} {
		if seen[key] && (key == "dpool" || version == "1") {
			return fmt.Errorf("parameter %q is new in link version %s", key, map[bool]string{true: "3", false: "2"}[key == "dpool"])
		}
	}
	if seen["slot"] {
		if n, err := linkInt(slot); err != nil || n < 1 {
			return errors.New(`parameter slot: must be a whole number of pages`)
		}
	}
	if onlyPreset(seen) {
		return nil
	}
	c := &st.Config
	if version == "1" {
		c.Allocator = engine.LIFO
	}
	c.DecodePoolTokens = engine.DecodePoolForSinglePool(c.ContextTokens, c.PoolTokens, c.PageTokens)
	st.Migrated = migrationNotice("link", "version "+version, c.DecodePoolTokens, version == "1")
	if p, ok := engine.PresetBySlug(st.Preset); ok && !(reflect.DeepEqual(p.Config, *c) && reflect.DeepEqual(p.Ops, st.Ops)) {
		st.Preset = "" // the preset has changed since: its name, text and tour are not this run's
	}
	return nil
}

// migrationNotice says what changed in a link or file made when the engine
// had one pool, so that a reader knows why its outcomes may differ.
func migrationNotice(what, made string, decodePool int, lifo bool) string {
	alloc := ""
	if lifo {
		alloc = " It keeps the lifo allocator it was made with."
	}
	return fmt.Sprintf("This %s (%s) was made when the playground had one KV pool. Its pages-per-slot setting is gone: decode now reserves the pages of the prompt as its own intake sees it, as SGLang's DecodePreallocQueue does. Its pool is now the prefill server's; decode's pool, which it did not set, is %s tokens — enough to back the advertised context, so every prompt the API passes reaches decode's door as before.%s Outcomes may differ from when it was made.",
		what, made, engine.Thousands(int64(decodePool)), alloc)
}
