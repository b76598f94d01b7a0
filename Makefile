# Build, serve and test the playground. CI runs `make test` (see .ci/run).
#   make site SITE_PREFIX=/kvleak   site for hosting under a sub-path
#   make site SITE_DOMAIN=you.github.io  link previews (og:url, og:image, twitter:card)
#   make serve ADDR=127.0.0.1:9000  build and serve it locally
#   make site BROTLI_Q=5            faster site builds while iterating
#                                   (brotli quality of app.wasm.br; 11 ships)

SITE_PREFIX ?=
SITE_DOMAIN ?=
ADDR        ?= 127.0.0.1:8080
GO          ?= go
BROTLI_Q    ?= 11

# Real prerequisites, so `make site` only rebuilds what changed. gensite
# prerenders pages with web/ and engine/, so they count for the site too.
WASM_SRC := go.mod go.sum $(shell find engine challenge web wasm replay deploycheck permalink internal -name '*.go' -not -name '*_test.go')
GEN_SRC  := $(shell find cmd/gensite internal/sitegen internal/preview internal/precompress -type f -not -name '*_test.go')
STATIC   := $(shell find static -type f)

.PHONY: wasm wasm-size fork-sizes site serve test test-run test-fast soak screens loadtest bench profile FORCE

wasm: build/app.wasm
site: build/site/index.html

# The wasm links build/goapp-wasm, kvleak's copy of go-app: go-app as
# go.mod requires it, with the patches in patches/goapp applied by git apply
# (its server half and unused features left out, rendering at once), through
# build/wasm.mod; go.mod and native builds keep the pristine module. See
# docs/upgrading-go-app.md. copy.sh writes build/wasm.mod last, so it stands
# for the copy too.
GOAPP         := github.com/maxence-charriere/go-app/v10
GOAPP_PATCHES := $(sort $(wildcard patches/goapp/*.patch))
# The copy's packages, vetted and tested with the page: what the patches add.
GOAPP_PKGS    := $(GOAPP)/pkg/app $(GOAPP)/pkg/errors $(GOAPP)/pkg/internal/nojson

build/wasm.mod: go.mod go.sum $(GOAPP_PATCHES) patches/goapp/copy.sh
	sh patches/goapp/copy.sh ./build/goapp-wasm $@ $(GOAPP_PATCHES)

# Every wasm goes from the linker through cmd/wasmmerge, which writes its
# tens of thousands of data segments as a few: the zeros between them cost
# brotli almost nothing, their headers much more (internal/wasmdata).
# $(call link,FLAGS) builds $@ that way, $(call link,FLAGS,MODFILE) with
# another copy of go-app.
MERGE_SRC := $(shell find cmd/wasmmerge internal/wasmdata internal/wasmbin -name '*.go' -not -name '*_test.go')
#
# The wasm is compiled without inlining, except in the runtime: the inline
# tables and call-site data in pclntab compress badly, while a Send or Step
# measured no slower; inlining off in the runtime too (allocation, maps,
# write barriers) costs CPU (docs/performance.md).
WASM_GCFLAGS := -gcflags=all=-l -gcflags=runtime= -gcflags=internal/runtime/...=
# Rewritten only when the flags change, so new flags relink every wasm.
build/wasm-flags: FORCE
	@mkdir -p build
	@echo "$(WASM_GCFLAGS)" | cmp -s - $@ || echo "$(WASM_GCFLAGS)" > $@
define link
GOOS=js GOARCH=wasm $(GO) build -modfile $(or $(2),build/wasm.mod) -trimpath $(WASM_GCFLAGS) $(1) -o $(@:.wasm=.linked.wasm) ./wasm
$(GO) run -trimpath ./cmd/wasmmerge -in $(@:.wasm=.linked.wasm) -out $@
endef

build/app.wasm: $(WASM_SRC) build/wasm.mod $(MERGE_SRC) build/wasm-flags
	$(call link,-ldflags="-s -w")

# make wasm-size: the shipped wasm's function bodies by Go module and
# package, on stdout and in build/wasm-size.txt (diff it across a change).
# -s drops the name section the table needs, so it reads a copy linked with
# -w only: the same code and data (wasmsize checks), plus the names.
build/app-names.wasm: $(WASM_SRC) build/wasm.mod $(MERGE_SRC) build/wasm-flags
	$(call link,-ldflags="-w")

build/wasm-pkgs.txt: $(WASM_SRC) build/wasm.mod
	GOOS=js GOARCH=wasm $(GO) list -modfile build/wasm.mod -deps -f '{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}' ./wasm > $@

wasm-size: build/app.wasm build/app-names.wasm build/wasm-pkgs.txt
	$(GO) run ./cmd/wasmsize -wasm build/app-names.wasm -shipped build/app.wasm -pkgs build/wasm-pkgs.txt -out build/wasm-size.txt

# make fork-sizes: what each patch of go-app's copy buys in the shipped
# wasm: app.wasm linked without it (build/without-NAME.wasm), in brotli bytes
# against app.wasm's. Several minutes: a link and a brotli pass a patch.
FORK_WITHOUT = $(patsubst patches/goapp/%.patch,build/without-%.wasm,$(GOAPP_PATCHES))
.PRECIOUS: build/without-%.mod
build/without-%.mod: go.mod go.sum $(GOAPP_PATCHES) patches/goapp/copy.sh
	sh patches/goapp/copy.sh ./build/goapp-without-$* $@ $(filter-out patches/goapp/$*.patch,$(GOAPP_PATCHES))
build/without-%.wasm: $(WASM_SRC) build/without-%.mod $(MERGE_SRC) build/wasm-flags
	$(call link,-ldflags="-s -w",build/without-$*.mod)
fork-sizes: build/app.wasm $(FORK_WITHOUT)
	$(GO) run ./cmd/wasmsize -brotli build/app.wasm $(FORK_WITHOUT)

# The browser tests' second site: the same app built with -tags testhooks
# (web/hooks_testhooks.go: a panic trigger, render counts, a settle that
# the tests wait on), never shipped.
build/app-testhooks.wasm: $(WASM_SRC) build/wasm.mod $(MERGE_SRC) build/wasm-flags
	$(call link,-tags testhooks -ldflags="-s -w")

build/site-testhooks/index.html: build/app-testhooks.wasm $(STATIC) $(GEN_SRC) $(WASM_SRC)
	$(GO) run -trimpath ./cmd/gensite -out build/site-testhooks -wasm build/app-testhooks.wasm -static static -br-large-q 1

# Holds the flags of the last site build; rewritten only when they change,
# so a new SITE_PREFIX, SITE_DOMAIN or BROTLI_Q rebuilds the site and the same ones don't.
SITE_FLAGS := -prefix '$(SITE_PREFIX)' -domain '$(SITE_DOMAIN)' -br-large-q $(BROTLI_Q)
build/site-flags: FORCE
	@mkdir -p build
	@echo "$(SITE_FLAGS)" | cmp -s - $@ || echo "$(SITE_FLAGS)" > $@

build/site/index.html: build/app.wasm build/site-flags $(STATIC) $(GEN_SRC) $(WASM_SRC)
	$(GO) run -trimpath ./cmd/gensite -out build/site -wasm build/app.wasm -static static $(SITE_FLAGS)

serve: site
	$(GO) run -trimpath ./cmd/serve -addr $(ADDR) -dir build/site -prefix '$(SITE_PREFIX)'

# The e2e tests drive build/site in Chromium, hence `site` first and the
# generous timeout: wasm compiles slowly on a 2-core machine, and a loaded
# CI machine took most of the 20 minutes it had before; 40 still stops a
# hung test.
# axe-core for e2e/a11y_test.go, pinned by package-lock.json.
node_modules/axe-core/axe.min.js: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# A test that lacks something from outside the repository skips
# (internal/testskip): the browser's without Chromium or axe-core (under CI
# they fail), the published traces' without ../shared/traces. go test hides
# skips without -v, so each is noted in SKIP_LOG and counted, by reason, at
# the end.
#
# web/ is tested against go.mod's go-app (go test ./..., as gensite
# prerenders with it) and, first, against the copy the wasm links
# (build/wasm.mod), natively: the copy builds for any GOOS. The GOOS=js vet
# reads the copy too; the copy's own packages are vetted and tested with it
# (the patches' added files and their tests). JSON's deepest nesting is read
# in Node as the page reads it (GOOS=js, the wasm's flags, V8's default stack).
#
# `make test` says how long it took (wall time, builds included), pass or fail.
SKIP_LOG := build/test-skips.txt
skipped = if [ -s $(SKIP_LOG) ]; then echo; echo "!!!!!!!! $$(wc -l < $(SKIP_LOG)) tests SKIPPED (names in $(SKIP_LOG)) !!!!!!!!"; cut -f2 $(SKIP_LOG) | sort | uniq -c; fi
test:
	@start=$$(date +%s); status=0; $(MAKE) --no-print-directory test-run || status=$$?; \
	t=$$(( $$(date +%s) - start )); echo "make test took $$((t / 60))m$$((t % 60))s"; exit $$status

test-run: site build/site-testhooks/index.html node_modules/axe-core/axe.min.js build/wasm.mod
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet -modfile build/wasm.mod ./web/... ./wasm/... $(GOAPP_PKGS)
	GOOS=js GOARCH=wasm $(GO) vet -modfile build/wasm.mod -tags testhooks ./web/...
	GOOS=js GOARCH=wasm $(GO) test -trimpath $(WASM_GCFLAGS) -exec="node $$($(GO) env GOROOT)/lib/wasm/wasm_exec_node.js" -run '^TestDeepNestingFitsTheStack$$' ./internal/jsonlite/
	$(GO) vet -modfile build/wasm.mod $(GOAPP_PKGS)
	$(GO) test -modfile build/wasm.mod ./web/... $(GOAPP_PKGS)
	@rm -f $(SKIP_LOG)
	@status=0; KVLEAK_SKIP_LOG="$(CURDIR)/$(SKIP_LOG)" $(GO) test -timeout 40m -parallel 2 ./... || status=$$?; \
	$(skipped); exit $$status

# make test-fast: the native half of `make test` for day-to-day work, in
# well under two minutes on a warm cache: vet, web/ against the wasm's copy
# of go-app and the copy's own packages, and every package's tests but the
# browser's (e2e/).
test-fast: build/wasm.mod
	@start=$$(date +%s); status=0; rm -f $(SKIP_LOG); \
	$(GO) vet ./... && \
	$(GO) vet -modfile build/wasm.mod $(GOAPP_PKGS) && \
	$(GO) test -modfile build/wasm.mod ./web/... $(GOAPP_PKGS) && \
	KVLEAK_SKIP_LOG="$(CURDIR)/$(SKIP_LOG)" $(GO) test $$($(GO) list ./... | grep -v '^kvleak/e2e$$') || status=$$?; \
	$(skipped); t=$$(( $$(date +%s) - start )); echo "make test-fast took $$((t / 60))m$$((t % 60))s"; exit $$status

# A seeded random walk over every control of the real site in headless
# Chromium (e2e/soak_test.go); it fails on any exception, console error, Go
# panic or dead page. `make test` runs a short, fixed-seed one. Replay a
# failure with the seed and action count it prints:
#   make soak SOAK_SEED=123 SOAK_ACTIONS=457
SOAK_SEED    ?= random
SOAK_ACTIONS ?= 2000
soak: site
	SOAK_SEED=$(SOAK_SEED) SOAK_ACTIONS=$(SOAK_ACTIONS) $(GO) test -timeout 60m -count=1 -v -run '^TestSoak$$' ./e2e/

# The screenshots for a human to look at (build/screenshots/, the reviewed
# ones copied to docs/screens/): the browser tests that take them, with the
# captures on. `make test` runs the same tests' checks without capturing.
screens: site
	KVLEAK_SCREENSHOTS=1 $(GO) test -count=1 -run '^(TestScreenshots|TestScreenshotsDark|TestReplayScreenshots|TestSmoke|TestEmbedSnippetSizesItsFrame|TestEmbedExampleCrossSite)$$' ./e2e/

# 2,000 requests at concurrency 32 for index.html and the wasm (br) against
# the real server on loopback, 5 rounds: requests/s and p50/p99 per round.
loadtest:
	$(GO) test -run XXX -bench Load -count 5 ./internal/server/

# Performance budgets in headless Chromium: medians of 5 cold runs, a table on
# stdout, build/bench.json (docs/performance.md). Takes minutes.
BENCH_FLAGS ?=
bench: site build/floor/goapp/web/app.wasm
	$(GO) run ./cmd/bench -site build/site -floor build/floor -out build/bench.json $(BENCH_FLAGS)

# The reference pages make bench measures start-up against: the smallest Go
# wasm page and the smallest go-app page (cmd/bench/floor, own modules).
build/floor/goapp/web/app.wasm: $(wildcard cmd/bench/floor/*/*)
	cmd/bench/floor/build.sh build/floor

# Where the bench's time goes: its CPU profiles (the Sends at both scales,
# the scrubbing at 681,280 pages), one run, of a site whose wasm keeps its
# function names (build/app-names.wasm), with their hottest functions on
# stdout; build/prof/*.cpuprofile open in DevTools → Performance.
profile: build/app-names.wasm
	$(GO) run -trimpath ./cmd/gensite -out build/site-prof -wasm build/app-names.wasm -static static -br-large-q 1
	$(GO) run ./cmd/bench -site build/site-prof -runs 1 -mem-sends 0 -skip-go -sends 10 -profile build/prof/p.cpuprofile -out build/prof/bench.json
