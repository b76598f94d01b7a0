package permalink

import (
	"errors"
	"fmt"
	"reflect"

	"kvleak/engine"
)

// migrate reads a link of version 1 to 3 as version 4. A link of version 1
// or 2, made when the engine had one pool, has its slot checked and
// dropped, decode's pool set as engine.DecodePoolForSinglePool says and, at
// version 1, the lifo allocator it was made with. Every older link then
// runs as engine.MigrateV3 says: made before decode's prealloc budget and
// the max_new_tokens clamp, it reserves nothing and decode's pool is raised
// where a request it decoded needs it. Migrated says what changed. A link
// that only names a preset opens the preset as it is now.
func (st *LinkState) migrate(version, slot string, seen map[string]bool) error {
	if seen["reserve"] {
		return errors.New(`parameter "reserve" is new in link version 4`)
	}
	onePool := version == "1" || version == "2"
	for _, key := range []string{"dpool", "alloc", "tab"} {
		if onePool && seen[key] && (key == "dpool" || version == "1") {
			return fmt.Errorf("parameter %q is new in link version %s", key, map[bool]string{true: "3", false: "2"}[key == "dpool"])
		}
	}
	if seen["slot"] {
		if !onePool {
			return errors.New(`parameter "slot" is gone in link version 3: decode reserves the pages of the prompt as it sees it`)
		}
		if n, err := linkInt(slot); err != nil || n < 1 {
			return errors.New(`parameter slot: must be a whole number of pages`)
		}
	}
	if onlyPreset(seen) || st.Tab {
		return nil
	}
	if version == "1" {
		st.Config.Allocator = engine.LIFO
	}
	st.Upgrade("link", "version "+version, onePool, version == "1")
	return nil
}

// Upgrade runs a run made before link version 4 (a link, or a run kept in
// the tab) as engine.MigrateV3 says, after giving one made with one pool
// decode's pool as engine.DecodePoolForSinglePool says; Migrated says so,
// naming it as what (a "link") and made (when: "version 2").
func (st *LinkState) Upgrade(what, made string, onePool, lifo bool) {
	c := &st.Config
	if onePool {
		c.DecodePoolTokens = engine.DecodePoolForSinglePool(c.ContextTokens, c.PoolTokens, c.PageTokens)
	}
	var changed string
	*c, changed = engine.MigrateV3(*c, st.Ops)
	st.Migrated = MigrationNotice(what, made, *c, onePool, lifo, changed)
	if p, ok := engine.PresetBySlug(st.Preset); ok && !(reflect.DeepEqual(p.Config, *c) && reflect.DeepEqual(p.Ops, st.Ops)) {
		st.Preset = "" // the preset has changed since: its name, text and tour are not this run's
	}
}

// MigrationNotice says what changed in a link or file made with an earlier
// version of the playground, so that a reader knows why its outcomes may
// differ: for one made with one pool, the pool decode was given
// (engine.DecodePoolForSinglePool, from c's context, pool and page), then
// engine.MigrateV3's words.
func MigrationNotice(what, made string, c engine.Config, onePool, lifo bool, changed string) string {
	if !onePool {
		return fmt.Sprintf("This %s (%s) was made with an earlier version of the playground. %s Outcomes may differ from when it was made.", what, made, changed)
	}
	alloc := ""
	if lifo {
		alloc = " It keeps the lifo allocator it was made with."
	}
	decodePool := engine.DecodePoolForSinglePool(c.ContextTokens, c.PoolTokens, c.PageTokens)
	return fmt.Sprintf("This %s (%s) was made when the playground had one KV pool. Its pages-per-slot setting is gone: decode now reserves the pages of the prompt as its own intake sees it, as SGLang's DecodePreallocQueue does. Its pool is now the prefill server's; decode's pool, which it did not set, is %s tokens — enough to back the advertised context, so every prompt the API passes reaches decode's door as before.%s %s Outcomes may differ from when it was made.",
		what, made, engine.Thousands(int64(decodePool)), alloc, changed)
}
