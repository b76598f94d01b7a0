package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openTestHooks is openHooked for a test that may trigger a contained
// panic on purpose.
func openTestHooks(t *testing.T) *browser {
	t.Helper()
	b := openHooked(t)
	b.Allow(`kvleak: recovered`) // the contained panic is logged on purpose
	return b
}

// openHooked opens the site built with -tags testhooks (make test builds
// it): the same app with the test hooks (web/hooks_testhooks.go), such as
// the panic trigger and the settle that settle waits on.
func openHooked(t *testing.T) *browser {
	t.Helper()
	site := serveTestHooks(t)
	b := newBrowser(t)
	b.Open(site)
	require.True(t, evalJS[bool](b, `typeof window.kvleakTest === "object"`), "the test hooks are in this build")
	return b
}

// serveTestHooks serves the test-hooks site and returns its URL.
func serveTestHooks(t *testing.T) string {
	t.Helper()
	return startSiteAt(t, filepath.Join(repoRoot(t), "build", "site-testhooks")).URL
}

// crashShown waits for the crash banner and checks what it says.
func crashShown(t *testing.T, b *browser, where string) {
	t.Helper()
	waitFor(b, "the crash banner", jsExists("#crash"))
	assert.Contains(t, textOf(b, "#crash"), "Something went wrong. Your run is kept — Reload restores it.")
	details := evalJS[string](b, `document.querySelector("#crash-details").textContent`)
	assert.Contains(t, details, "test hook: armed panic in "+where)
	assert.Contains(t, details, "link: ?v=4&", "the details carry the permalink")
}

// A panic in a change, a render or a child's handler is contained: the
// banner shows, the run on screen stays, and the page goes on working —
// and Reload restores the run from the address bar.
func TestPanicIsContained(t *testing.T) {
	t.Parallel()
	b := openTestHooks(t)
	for _, c := range []struct{ where, trigger string }{
		{"apply", "#step-back"},
		{"views", "#step-back"},
		{"handler", "#table-toggle"},
	} {
		t.Run(c.where, func(t *testing.T) {
			withT(b, t)
			before := textOf(b, "#step-pos")
			b.Do(evalVoid(`kvleakTest.arm(` + jsLit(c.where) + `)`))
			clickSel(b, c.trigger)
			crashShown(t, b, c.where)
			if c.where == "apply" {
				assert.Equal(t, before, textOf(b, "#step-pos"), "the change that panicked changed nothing")
			}
			clickSel(b, "#crash-dismiss")
			waitFor(b, "the banner dismissed", `document.querySelector("#crash") === null`)

			// Still alive: the fixed door answers 400, the vulnerable one leaks again.
			setField(b, "#mode", "fixed")
			waitFor(b, "the fixed door's 400", `document.querySelector("#status").textContent === "400"`)
			setField(b, "#mode", "vulnerable")
			waitFor(b, "the leak again", `document.querySelector("#status").textContent === "200"`)
		})
	}

	t.Run("reload restores the run", func(t *testing.T) {
		withT(b, t)
		setField(b, "#mode", "fixed")
		waitFor(b, "the fixed door's 400", `document.querySelector("#status").textContent === "400"`)
		b.Do(evalVoid(`kvleakTest.arm("apply")`))
		clickSel(b, "#step-back")
		crashShown(t, b, "apply")
		b.Do(evalVoid(`window.kvleakBeforeReload = true`))
		clickSel(b, "#crash-reload")
		waitReloaded(t, b)
		waitFor(b, "the run after the reload", `document.querySelector("#status").textContent === "400"`)
		assert.Equal(t, "fixed", valueOf(b, "#mode"))
		assert.Equal(t, 0, countAll(b, "#crash"), "a fresh page has no banner")
	})
}

// The shipped wasm has no test hooks: the trigger exists only in the
// testhooks build.
func TestShippedWasmHasNoTestHooks(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	shipped, err := os.ReadFile(filepath.Join(root, "build", "site", "web", "app.wasm"))
	require.NoError(t, err, "make site first")
	hooked, err := os.ReadFile(filepath.Join(root, "build", "site-testhooks", "web", "app.wasm"))
	require.NoError(t, err, "make build/site-testhooks/index.html first")
	const marker = "kvleakTest"
	assert.True(t, bytes.Contains(hooked, []byte(marker)), "the marker is the hooks' own name")
	assert.False(t, bytes.Contains(shipped, []byte(marker)), "the shipped wasm links the test hooks")
	assert.False(t, strings.Contains(string(shipped), "armed panic"))
}

// waitReloaded waits until the page has reloaded (a marker set on the old
// window is gone) and the app runs again. Evaluations fail while the page
// navigates; waitFor looks again until the deadline.
func waitReloaded(t *testing.T, b *browser) {
	t.Helper()
	waitFor(b, "the page to reload and start", `window.kvleakBeforeReload === undefined && `+jsExists(readySelector), within(readyTimeout))
}
