package goappfork

import (
	"fmt"
	"strings"
)

// replacement is one textual edit of a pinned file: old must occur exactly
// once (the file's SHA-256 is pinned too, so it always does for v10.1.11).
type replacement struct{ old, new string }

// replacements keep four client features the playground does not use out
// of the wasm, each with what it alone linked (brotli sizes from the README):
//
//   - uuid.NewString (DeviceID, the broadcast-state store id) linked the
//     uuid module and, through it, crypto/rand, math/big, md5 and sha1;
//     newUUID (slim.go.txt) makes the same random UUID from the browser's
//     crypto.getRandomValues, the source crypto/rand reads in a browser.
//
//   - regexp routes (RouteWithRegexp) linked regexp: the router matches its
//     list on every navigation, empty or not. The copy's routes panic on
//     registration; the playground registers plain routes only.
//
//   - encryption (Context.Encrypt/Decrypt, State.PersistWithEncryption)
//     linked crypto/aes, crypto/cipher and crypto/rand; crypto.go is left
//     out and slim.go.txt's encrypt/decrypt return an error.
//
//   - encoding/json (web storage, persisted and broadcast states,
//     notifications, the Handler's internal URLs, and the errors' text) and
//     the reflect code only it kept: about 650 KB raw, 100 KB brotli once
//     the playground's own JSON went to internal/jsonlite. The client files
//     import nojson.go.txt's stand-in instead, whose calls are errors, and
//     pkg/errors writes an error as text (errors_slim.go.txt) where it
//     wrote JSON.
//
// TestUIUsesNoneOfTheRemovedFeatures keeps the playground off them.
//
// One edit changes when, not what: go-app's loop renders the components a
// dispatch marked on a 120 Hz ticker that it starts on the first dispatch,
// so every click waited 8.3 ms (and then the next vsync) before its render
// began. The copy renders as soon as the dispatch queue is empty, which is
// still after the handler and still on go-app's loop, but inside the event's
// own task; a burst of dispatches still makes one frame, and a render whose
// deferred work dispatches again gets one more render at once and then
// waits for the ticker, so it cannot spin (renderGate, slim.go.txt). The
// guard was the ticker's 8.3 ms at first, then any dispatch within a
// millisecond of the last frame: a click in the frame right after the
// page's own after-paint render (web/lateviews.go) waited for the ticker,
// which a loaded CI machine saw, and so did the second of two clicks in one
// script, behind an empty frame that followed the first one's render (an
// empty frame is no render to the gate now). TestAClickRendersBeforeItReturns,
// TestAClickRightAfterARenderRendersAtOnce and (in the copy)
// TestKvleakRenderGate hold it.
//
// One finds the link a click landed in with one closest("a") call
// (closestLink, slim.go.txt), where go-app's page-wide click handler walked from the
// target up to the body, reading each element's tagName and parentElement:
// two calls into JavaScript a level, a string decoded at each, on every
// click of the page (about 0.35 ms of a Step's 6 ms of Go in a warm
// page's profile). What it does with the link is go-app's, unchanged.
//
// And one reads window.document once (slim.go.txt's document) where go-app
// read it again for every element and text node it created: a call into
// JavaScript and a js.Value with a finalizer each, about 1,500 of them to
// mount the page.
var replacements = map[string][]replacement{
	"pkg/app/js_wasm.go": {
		{`element = w.Get("document").Call("createElement", tag)`, `element = document().Call("createElement", tag)`},
		{`element = w.Get("document").Call("createElementNS", xmlns, tag)`, `element = document().Call("createElementNS", xmlns, tag)`},
		{`return w.Get("document").Call("createTextNode", v)`, `return document().Call("createTextNode", v)`},
	},
	"pkg/app/browser.go": {
		{`for target := event.Get("target"); target.Truthy(); target = target.Get("parentElement") {`,
			`for target := closestLink(event.Get("target")); target.Truthy(); target = Null() {`},
	},
	"pkg/app/engine.go": {
		{engineLoop, slimEngineLoop},
		noJSON,
	},
	"pkg/app/context.go": {
		{"\t\"github.com/google/uuid\"\n", ""},
		{"id = uuid.NewString()", "id = newUUID()"},
		noJSON,
	},
	"pkg/app/state.go": {
		{"\t\"github.com/google/uuid\"\n", ""},
		{"m.broadcastStoreID = uuid.NewString()", "m.broadcastStoreID = newUUID()"},
		noJSON,
	},
	"pkg/app/storage.go":      {noJSON},
	"pkg/app/notification.go": {noJSON},
	"pkg/app/strings.go":      {noJSON},
	"pkg/errors/errors.go": {
		{"\t\"encoding/json\"\n", ""},
		{"Encoder = json.Marshal\n", "Encoder = encodeText\n"},
		{"Encoder = func(v any) ([]byte, error) {\n\t\treturn json.MarshalIndent(v, \"\", \"  \")\n\t}", "Encoder = encodeText"},
	},
	"pkg/app/route.go": {
		{"import (\n\t\"regexp\"\n\t\"sync\"\n)", "import \"sync\""},
		{"regexp:       regexp.MustCompile(pattern),", "regexp:       compileRoute(pattern),"},
		{"regexp       *regexp.Regexp", "regexp       *routeRegexp"},
	},
}

// noJSON points a client file's encoding/json import at the stand-in.
var noJSON = replacement{"\t\"encoding/json\"\n", "\tjson \"" + ModulePath + "/pkg/internal/nojson\"\n"}

// replace applies rel's replacements to data.
func replace(rel string, data []byte) ([]byte, error) {
	s := string(data)
	for _, r := range replacements[rel] {
		if n := strings.Count(s, r.old); n != 1 {
			return nil, fmt.Errorf("%s: %q occurs %d times, not once: check internal/goappfork's edits", rel, r.old, n)
		}
		s = strings.Replace(s, r.old, r.new, 1)
	}
	return []byte(s), nil
}

// engineLoop is go-app's frame scheduling in engineX.Start; slimEngineLoop
// renders when the queue drains (see replacements).
const engineLoop = `	for {
		select {
		case dispatch := <-e.dispatches:
			if currentFrameDuration != activeFrameDuration {
				frames.Reset(activeFrameDuration)
				currentFrameDuration = activeFrameDuration
			}
			dispatch()

		case <-frames.C:
			e.processFrame()
			frames.Reset(iddleFrameDuration)
			currentFrameDuration = iddleFrameDuration
`

const slimEngineLoop = `	// A dispatch that leaves the queue empty renders at once, when the
	// gate lets it (renderGate, kvleak's slim.go.txt).
	var gate renderGate
	frame := func() {
		start, work := time.Now(), e.frameHasWork()
		e.processFrame()
		if work {
			gate.rendered(start, time.Now())
		}
		frames.Reset(iddleFrameDuration)
		currentFrameDuration = iddleFrameDuration
	}
	for {
		select {
		case dispatch := <-e.dispatches:
			dispatch()
			if len(e.dispatches) == 0 && gate.open(time.Now()) {
				frame()
			} else if currentFrameDuration != activeFrameDuration {
				frames.Reset(activeFrameDuration)
				currentFrameDuration = activeFrameDuration
			}

		case <-frames.C:
			frame()
`
