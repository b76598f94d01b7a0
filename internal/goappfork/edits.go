package goappfork

import "strings"

// An Edit is one divergence from go-app: what it changes, why, what it
// buys and the tests that fail without it. It changes either the copy of
// go-app that the wasm links (Run) or a script go-app writes for the site
// (EditScript). TestEveryEditIsAccountedFor checks that each has a reason,
// a figure and tests that exist.
type Edit struct {
	Name   string   // what -without, the docs and the tests call it
	Reason string   // why go-app's way does not suit the playground
	Buys   string   // what it buys, measured, and how
	Tests  []string // tests that fail without it

	replace  map[string][]replacement // exact edits of go-app's files, by path
	notWasm  []string                 // go-app files built for !wasm only
	omit     []string                 // go-app files left out
	add      []string                 // files the copy adds (add/PATH.txt)
	keepsOut []string                 // packages the wasm links without the edit, not with it

	scripts map[string][]replacement // edits of the scripts go-app writes (AppJS, WorkerJS); wasmURL in them stands for app.wasm's
}

// Edits are every divergence from go-app, the copy's first.
var Edits = []Edit{serverHalf, noUUID, regexpRoutes, encryption, noJSON, renderAtOnce, closestLink,
	swWarning, wasmCompile, workerAnyQuery}

// The copy's edits that keep code out of the wasm. The playground uses none
// of the features they take out: TestUIUsesNoneOfTheRemovedFeatures.

var serverHalf = Edit{
	Name:   "server-half",
	Reason: "pkg/app keeps go-app's server Handler beside the client, so every go-app wasm links net/http, TLS and x509",
	Buys:   "413,635 B of brotli app.wasm: net/http, crypto/tls and x509 (make fork-sizes, 3 Dec 2026)",
	Tests:  []string{"TestEachEditKeepsItsPackagesOut", "TestClientHelpersAreVerbatim"},

	notWasm:  []string{"pkg/app/http.go", "pkg/app/resource.go"},
	omit:     []string{"pkg/app/wasm.go"}, // only a GenerateStaticWebsite stub that needs Handler
	add:      []string{"pkg/app/client_wasm.go"},
	keepsOut: []string{"net/http", "crypto/tls", "crypto/x509"},
}

var noUUID = Edit{
	Name:   "uuid",
	Reason: "DeviceID and the broadcast-state store id called uuid.NewString, which links crypto/rand, md5 and sha1; the copy makes the same UUID from crypto.getRandomValues, crypto/rand's source in a browser",
	Buys:   "57,323 B of brotli app.wasm (make fork-sizes, 3 Dec 2026)",
	Tests:  []string{"TestEachEditKeepsItsPackagesOut", "TestKvleakFormatUUID"},

	replace: map[string][]replacement{
		"pkg/app/context.go": {{"\t\"github.com/google/uuid\"\n", ""}, {"id = uuid.NewString()", "id = newUUID()"}},
		"pkg/app/state.go":   {{"\t\"github.com/google/uuid\"\n", ""}, {"m.broadcastStoreID = uuid.NewString()", "m.broadcastStoreID = newUUID()"}},
	},
	add:      []string{"pkg/app/kvleak_uuid.go"},
	keepsOut: []string{"github.com/google/uuid", "crypto/md5", "crypto/sha1", "crypto/rand"},
}

var regexpRoutes = Edit{
	Name:   "regexp-routes",
	Reason: "the router matches its list of RouteWithRegexp routes on every navigation, empty or not, so regexp is linked; the copy's regexp routes panic on registration",
	Buys:   "12,896 B of brotli app.wasm (make fork-sizes, 3 Dec 2026)",
	Tests:  []string{"TestEachEditKeepsItsPackagesOut"},

	replace: map[string][]replacement{"pkg/app/route.go": {
		{"import (\n\t\"regexp\"\n\t\"sync\"\n)", "import \"sync\""},
		{"regexp:       regexp.MustCompile(pattern),", "regexp:       compileRoute(pattern),"},
		{"regexp       *regexp.Regexp", "regexp       *routeRegexp"},
	}},
	add:      []string{"pkg/app/kvleak_routes.go"},
	keepsOut: []string{"regexp"},
}

var encryption = Edit{
	Name:   "encryption",
	Reason: "Context.Encrypt/Decrypt and State.PersistWithEncryption link AES-GCM; the copy's return an error",
	Buys:   "53,559 B of brotli app.wasm (make fork-sizes, 3 Dec 2026)",
	Tests:  []string{"TestEachEditKeepsItsPackagesOut"},

	omit:     []string{"pkg/app/crypto.go"},
	add:      []string{"pkg/app/kvleak_crypto.go"},
	keepsOut: []string{"crypto/aes", "crypto/cipher"},
}

// jsonImport points a client file's encoding/json import at the stand-in.
var jsonImport = replacement{"\t\"encoding/json\"\n", "\tjson \"" + ModulePath + "/pkg/internal/nojson\"\n"}

var noJSON = Edit{
	Name:   "no-json",
	Reason: "web storage, persisted and broadcast states, notifications, internal URLs and pkg/errors' text use encoding/json; the copy's calls are errors and an error is written as text",
	Buys:   "78,567 B of brotli app.wasm (make fork-sizes, 3 Dec 2026)",
	Tests:  []string{"TestEachEditKeepsItsPackagesOut", "TestKvleakStorageRefusesJSON", "TestKvleakErrorsAsText"},

	replace: map[string][]replacement{
		"pkg/app/engine.go":       {jsonImport},
		"pkg/app/context.go":      {jsonImport},
		"pkg/app/state.go":        {jsonImport},
		"pkg/app/storage.go":      {jsonImport},
		"pkg/app/notification.go": {jsonImport},
		"pkg/app/strings.go":      {jsonImport},
		"pkg/errors/errors.go": {
			{"\t\"encoding/json\"\n", ""},
			{"Encoder = json.Marshal\n", "Encoder = encodeText\n"},
			{"Encoder = func(v any) ([]byte, error) {\n\t\treturn json.MarshalIndent(v, \"\", \"  \")\n\t}", "Encoder = encodeText"},
		},
	},
	add:      []string{"pkg/internal/nojson/nojson.go", "pkg/errors/kvleak_text.go"},
	keepsOut: []string{"encoding/json"},
}

// The copy's edits that change when or how go-app does its work.

var renderAtOnce = Edit{
	Name:   "render-at-once",
	Reason: "go-app's loop renders a dispatch on a 120 Hz ticker it starts on the first dispatch, so every click's render waited 8.3 ms and left the click's task; the copy renders when the queue drains, gated so that it cannot spin",
	Buys:   "a click's render in the click's own task, 8.3 ms sooner and before the next paint: pristine go-app's landed 25-35 ms after the click (performance log, 1 Dec; not measured again); costs 4,125 B of brotli app.wasm",
	Tests:  []string{"TestAClickRendersBeforeItReturns", "TestAClickRightAfterARenderRendersAtOnce", "TestKvleakRenderGate", "TestKvleakEmptyFrameHasNoWork"},

	replace: map[string][]replacement{"pkg/app/engine.go": {{engineLoop, forkEngineLoop}}},
	add:     []string{"pkg/app/kvleak_loop.go"},
}

var closestLink = Edit{
	Name:   "closest-link",
	Reason: "go-app's page-wide click handler walks from every click's target up to the body, two calls into JavaScript a level; the copy asks closest(\"a\") once",
	Buys:   "about 0.35 ms of a warm Step's 6 ms of Go, in a CPU profile (performance log, 2 Dec; not measured again); costs 2,763 B of brotli app.wasm",
	Tests:  []string{"TestKvleakClosestLinkIsOneCall", "TestALinkOfThePageIsNavigatedInPlace"},

	replace: map[string][]replacement{"pkg/app/browser.go": {{
		`for target := event.Get("target"); target.Truthy(); target = target.Get("parentElement") {`,
		`for target := closestLink(event.Get("target")); target.Truthy(); target = Null() {`,
	}}},
	add: []string{"pkg/app/kvleak_click.go"},
}

// engineLoop is go-app's frame scheduling in engineX.Start; forkEngineLoop
// renders when the queue drains (renderGate, add/pkg/app/kvleak_loop.go).
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

const forkEngineLoop = `	// A dispatch that leaves the queue empty renders at once, when the
	// gate lets it (renderGate, kvleak_loop.go).
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

// The edits of the scripts go-app writes (scripts.go).

var swWarning = Edit{
	Name:   "sw-warning",
	Reason: "in a frame on another site with its site data blocked the service worker cannot register, which is expected (the page runs, only not offline), but app.js reports it as a console error",
	Buys:   "no console error in an embed whose site data is blocked, where the page runs as it should (1 error to 0)",
	Tests:  []string{"TestEmbedExampleCrossSite"},

	scripts: map[string][]replacement{AppJS: {{swFailure, strings.Replace(swFailure, "console.error", "console.warn", 1)}}},
}

var wasmCompile = Edit{
	Name:   "wasm-compile",
	Reason: "app.js's fetchWithProgress re-queues the wasm chunk by chunk on the main thread and repaints the loader's percentage every frame, and compiles only once the page is parsed; the edited app.js instantiates the module the head's script began compiling (sitegen's preload.go)",
	Buys:   "interactive on loopback 1,846 to 1,476 ms with the still loader logo, then, with the head's script, compile asked for at 392 to 129 ms and interactive 1,335 to 1,144 ms (performance log, 1 and 3 Dec; not measured again)",
	Tests:  []string{"TestTheLoaderIsStillWhileTheWasmLoads", "TestTheWasmCompilesWhileThePageIsParsed"},

	scripts: map[string][]replacement{AppJS: {{`    const wasm = await instantiateStreaming(
      fetchWithProgress(` + wasmURL + `, showProgress),
      go.importObject
    );
`, `    const module = await (window.kvleakWasm || WebAssembly.compileStreaming(fetch(` + wasmURL + `)));
    const wasm = { instance: await WebAssembly.instantiate(module, go.importObject) };
`}}},
}

var workerAnyQuery = Edit{
	Name:   "worker-any-query",
	Reason: "every permalink is a query on the same page, but go-app's service worker answers a navigation from its cache only for the exact URL it cached",
	Buys:   "a permalink opens offline: without it a link with any query misses the cache",
	Tests:  []string{"TestOfflineAfterFirstVisit", "TestMegabyteLink"},

	scripts: map[string][]replacement{WorkerJS: {{"caches.match(request)", `caches.match(request, {ignoreSearch: request.mode === "navigate"})`}}},
}
