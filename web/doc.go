// Package web is the playground's go-app v10 components: the adapter that
// turns the state model (web/model, plain Go) into elements. It computes no
// rule of its own; every number comes from the engine through the model.
//
// Decisions, each kept in the file that implements it:
//   - One component per file, built like go-app's own docs site: a newXxx()
//     constructor, inputs as exported fields (Ixxx) with chainable setters,
//     unexported fields for the component's own state (page.go and every
//     *panel.go, *form.go, *view.go).
//   - The page keeps the session and the URL. It builds the page from
//     children, handing each its view of the session (pageviews.go) and a
//     callback per thing the reader can do there (actions.go).
//   - One path for every change: a callback ends in apply, which stops
//     playback, changes the session, hands the address bar its new query
//     and lets the page render (apply.go). The address bar is written (the
//     one call of ReplaceURL) once the frame showing the change is painted,
//     the last query of those set in between (addressbar.go).
//   - What the reader watches first: a change renders the verdict, the
//     pool, the pipeline and the scrubber in the click's own task, and the
//     panels below them (the log, the metrics, the Prometheus text, the
//     launch tests, the share links) after that frame is painted; the
//     page's root says data-late="held" in between (lateviews.go, on
//     afterpaint.go, which the address bar uses too). A change made from
//     the request form's buttons renders the page but not the form, which
//     shows only what the page hands it (actions.go: renderPageOnly).
//   - Callbacks are unexported fields on purpose. go-app updates a child
//     when its exported fields differ by reflect.DeepEqual, and two funcs
//     are never equal: an exported callback would render every child on
//     every parent render. They are bound to the page, which outlives its
//     children, so the one a child got at mount stays right.
//   - Caching: an unchanged child is not rendered (go-app compares its
//     inputs), so a list whose items change one or two at a time is a list
//     of components (pipelinestage.go); the model's views keep their identity while unchanged, so
//     that comparison is immediate (model/memo.go). The render counter in
//     rendercount.go lets tests check it.
//   - Raw-HTML grid and log: up to 512 cells and 300 log rows are raw
//     elements, not diffed nodes with listeners each; every value in them is
//     HTML-escaped (gridhtml.go, loghtml.go). The grid is runs of 32 cells
//     and the log blocks of 25 rows, kept between renders, so that a Send
//     builds and replaces only the blocks that changed (gridRunCache,
//     logblocks.go); past 300 rows each block keeps its place as the
//     window moves on (logPlacesFrom). A grid of the same shape is patched
//     in place instead: each changed cell's attributes and content
//     (poolgrid.go, gridpatch.go), and in the browser the log's selected
//     row is marked on the rows in the page rather than written into its
//     block (eventlog.go).
//   - A step costs the pages it touches: the pool map is brought up to date
//     from the last one and the canvas repaints only the changed pixels
//     (poolmap.go, mappixels.go: repaint); the grid of a large pool is
//     summarised again only where they fall (model.updateGrid).
//   - No geometry read in an update: reading layout (offsetTop…) in
//     OnUpdate forces the browser to lay the page out in the middle of
//     go-app's update; the log follows its selected row with an
//     IntersectionObserver instead (eventlog.go).
//   - Delegated events: the grid's and the log's events are handled on
//     their wrappers as they bubble, reading the cell or row from the element
//     (poolevents.go, eventlog.go); list items read their subject from a
//     data attribute (dom.go), because go-app keeps the handler first
//     mounted on a reused element.
//   - Panics are contained: apply, the views a render reads, OnMount, OnNav,
//     playback and every child handler (safe) recover and show the crash
//     banner over the last good views, keeping the run (crash.go,
//     banners.go). The browser tests trigger one through hooks that exist
//     only with -tags testhooks (hooks_testhooks.go; hooks.go is the
//     shipped no-op).
//   - Never lose a run: a run too long for a link is kept in the tab's
//     sessionStorage and the address bar says ?v=2&tab=1 (apply.go, nav.go,
//     model/tabrun.go). It is written there directly (tabstore.go): go-app's
//     SessionStorage encodes with encoding/json, which the wasm leaves out.
//   - Banners sit in one stable container: go-app diffs children by
//     position, so a banner among the page's children would remount the
//     layout after it (page.go).
//   - Storage guard: where the browser refuses web storage (an iframe with
//     third-party data blocked) an in-memory Storage stands in, since go-app
//     reads it at start-up (storage.go).
//   - Prerendered booleans: a false boolean attribute is left out of the
//     prerendered page, where HTML would read selected="false" as true
//     (attrs.go).
//   - When renders run: the wasm's copy of go-app renders as soon as its
//     dispatch queue drains, inside the event's own task, rather than on a
//     ticker 8.3 ms later (internal/goappfork/edits.go). It is still after
//     the handler returns, so a handler never sees its own render, and a
//     render less than a millisecond after the last waits for the ticker;
//     natively (tests, the generator) go-app is the pristine module.
package web
