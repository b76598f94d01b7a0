// Package sitegen builds the playground's static website: go-app's
// prerendered pages and loader scripts, the static assets, app.wasm, and
// .br/.gz twins of everything compressible. cmd/gensite is its CLI.
//
// Server-only: the wasm build must never import it.
package sitegen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"kvleak/internal/precompress"
	"kvleak/web"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Config says where things are. Prefix is the URL path the site is hosted
// under ("/kvleak" for GitHub-Pages-style hosting, "" for the root).
type Config struct {
	Out, Wasm, Static, Prefix string
	Domain                    string // host the site is served from, for link previews; "" = unknown
	Compress                  precompress.Options
}

// Generate builds the site in a temporary directory next to Out and then
// swaps it in, so Out never holds a half-built site and files removed from
// static/ do not linger.
func Generate(c Config) error {
	prefix, err := NormalizePrefix(c.Prefix)
	if err != nil {
		return err
	}
	c.Prefix = prefix
	if c.Domain, err = NormalizeDomain(c.Domain); err != nil {
		return err
	}
	wasm, err := os.ReadFile(c.Wasm)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("wasm %s not found: build it first with `make wasm`", c.Wasm)
	} else if err != nil {
		return fmt.Errorf("reading wasm: %w", err)
	}
	if _, err := os.Stat(c.Static); err != nil {
		return fmt.Errorf("static dir: %w", err)
	}
	if err := checkReplaceable(c.Out); err != nil {
		return err
	}
	version, err := Version(wasm, c.Static, c.Prefix, c.Domain)
	if err != nil {
		return fmt.Errorf("hashing site: %w", err)
	}

	parent := filepath.Dir(filepath.Clean(c.Out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".gensite-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // no-op after the rename

	if err := build(tmp, c, wasm, version); err != nil {
		return err
	}
	if err := os.RemoveAll(c.Out); err != nil {
		return err
	}
	return os.Rename(tmp, c.Out)
}

func build(dir string, c Config, wasm []byte, version string) error {
	// Routes are global in go-app; the generator prerenders each one.
	web.Routes()
	h := handler(c.Prefix, c.Domain, version, len(wasm))
	if err := app.GenerateStaticWebsite(dir, h); err != nil {
		return fmt.Errorf("go-app: %w", err)
	}
	if c.Domain == "" {
		if err := dropUnknownOrigin(dir); err != nil {
			return err
		}
	}
	// Before copyStatic: the tags go into go-app's pages, not static/'s.
	if err := addPreview(dir, c.Domain); err != nil {
		return fmt.Errorf("link preview: %w", err)
	}
	if err := scopeManifest(dir, c.Prefix); err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	if err := editScripts(dir, c.Prefix); err != nil {
		return err
	}
	// Last of the page's edits: the states are go-app's pages, as rendered.
	if err := addEarlyStates(dir, h); err != nil {
		return err
	}
	if err := writeScriptHashes(dir, c.Prefix, len(wasm)); err != nil {
		return err
	}
	if err := copyStatic(c.Static, dir); err != nil {
		return fmt.Errorf("copying static: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "web", "app.wasm"), wasm, 0o644); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o755); err != nil { // MkdirTemp makes it 0700
		return err
	}
	if err := precompress.Dir(dir, c.Compress); err != nil {
		return fmt.Errorf("precompressing: %w", err)
	}
	return nil
}

// checkReplaceable guards against -out pointing at a directory that is not
// a previous build (say, the repo root): Generate deletes what is there.
func checkReplaceable(out string) error {
	entries, err := os.ReadDir(out)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	} else if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		return fmt.Errorf("%s is not empty and has no index.html: refusing to replace it", out)
	}
	return nil
}
