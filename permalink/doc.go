// Package permalink is the playground's link: the query string that holds
// a run (its settings and requests) and how it is shown. It is plain Go,
// shared by the page (web/model reads a link's view keys, the session
// writes its links) and the terminal (kvleak trace, replay and challenge
// read links; kvleak check and replay print them, through deploycheck and
// replay). It also reads the counts people type for those settings
// (ParseCount), in the page's fields and the command's flags alike.
//
// Schema, version 4:
//
//	v=4                      schema version (required when any other key is set)
//	preset=demo              the scenario the run started from; alone (with v
//	                         and optional step/view keys) it loads the preset
//	ctx, pool, dpool, page   the configuration, as integers: the context, the
//	                         prefill and decode servers' pools, the page size
//	reserve                  decode's --num-reserved-decode-tokens (0 or more)
//	mode=vulnerable|fixed|retire-only|length-check-only|upstream
//	alloc=sorted|lifo|fifo   cancel=both|one    scrub=0|1
//	door=none|all|<states joined by dots>   (absent: as the mode retires)
//	wcheck=0|1               gw=off|alert|block  (absent: 0, off)
//	op=s,<tenant>,<tokens>,<end>,<content>[,<max_new_tokens>]   a send; end
//	                         is "-", "fail" or a stage; max_new_tokens only
//	                         when the request sent it
//	op=x,<request>,<outcome>                 settle a deferred release
//	step=<n>                 the selected log step (0 or absent: the latest)
//	tab=1                    the run is kept in this tab's storage
//	                         (web/model/tabrun.go); only view keys go with it
//
// The view keys go with any link; the page reads them
// (web/model/view.go), the codec only carries them:
//
//	compare=1                show the side-by-side engines
//	embed=1  ro=1            embed mode, read-only embed
//	view=pipeline|pool|compare|transcript|challenge   an embed of one panel
//	theme=light|dark         force a colour scheme
//	tour=<n>                 the guided tour, at card n
//	challenge=<n>            the ladder's challenge n
//
// The settings' keys are the Settings table's (settings.go). Fields inside
// op are query-escaped and joined by literal commas.
//
// Links of versions 1 to 3 keep opening and replay the run they were made
// with (legacy.go), and Migrated says what changed. Versions 1 and 2, made
// when the engine had one pool: their slot key is read and dropped,
// decode's pool is set as engine.DecodePoolForSinglePool says, and a
// version 1 link (before alloc) gets the lifo allocator it was made with.
// Versions 1 to 3, made before decode's prealloc budget and the
// max_new_tokens clamp: engine.MigrateV3 gives them no reserve and raises
// decode's pool where a request they decoded needs it.
package permalink
