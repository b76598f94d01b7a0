// Package goappfork is the one place where kvleak differs from go-app.
//
// Each divergence is an Edit in Edits (edits.go), with why it is made,
// what it buys and the tests that fail without it. Most edit the copy of
// go-app that the wasm links: Run writes it, and a second modfile points
// the wasm build at it, while go.mod, go.sum and native builds keep the
// pristine module. The rest edit the scripts go-app writes for the site,
// app.js and its service worker (EditScript, which sitegen calls).
//
// The edits are exact replacements, known to be right only for the go-app
// releases whose files' hashes are listed (versions.go): any other release,
// or a file that differs from its release's, is refused until someone has
// checked the edits against it (docs/upgrading-go-app.md).
package goappfork

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// ModulePath is go-app's module.
const ModulePath = "github.com/maxence-charriere/go-app/v10"

// Config says where to read and write. Relative paths are taken from the
// working directory.
type Config struct {
	GoMod   string   // the main module's go.mod; its go.sum sits next to it
	Src     string   // go-app's module directory; "" = the module cache's
	Out     string   // where the copy goes; replaced on every run
	ModFile string   // the modfile for the wasm build; its .sum twin is written too
	Without []string // names of the copy's edits to leave out, to measure what they buy
}

// Validate checks c without touching the file system.
func (c Config) Validate() error {
	switch {
	case c.GoMod == "":
		return errors.New("invalid -gomod: empty")
	case c.Out == "":
		return errors.New("invalid -out: empty")
	case c.ModFile == "":
		return errors.New("invalid -modfile: empty")
	case !strings.HasSuffix(c.ModFile, ".mod"):
		// The go command requires it and derives the .sum name from it.
		return fmt.Errorf("invalid -modfile %q: must end in .mod", c.ModFile)
	case filepath.Base(c.ModFile) == "go.mod":
		// Its .sum twin would be go.sum: never overwrite the real pair.
		return fmt.Errorf("invalid -modfile %q: must not be named go.mod", c.ModFile)
	}
	_, err := copyEdits(c.Without)
	return err
}

// copyEdits are the edits of the copy, but those named in without.
func copyEdits(without []string) ([]Edit, error) {
	var names []string
	var out []Edit
	for _, e := range Edits {
		if e.scripts != nil {
			continue
		}
		names = append(names, e.Name)
		if !slices.Contains(without, e.Name) {
			out = append(out, e)
		}
	}
	for _, name := range without {
		if !slices.Contains(names, name) {
			return nil, fmt.Errorf("invalid -without %q: the copy's edits are %s", name, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// Run checks go-app's release and files, then writes the copy and, last,
// the modfile (so the modfile can stamp both for make).
func Run(c Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	edits, err := copyEdits(c.Without)
	if err != nil {
		return err
	}
	version, err := requiredVersion(c.GoMod)
	if err != nil {
		return err
	}
	if err := checkVersion(c.GoMod, version); err != nil {
		return err
	}
	src := c.Src
	if src == "" {
		if src, err = moduleDir(filepath.Dir(c.GoMod), version); err != nil {
			return err
		}
	}
	if err := verifyFiles(src, version); err != nil {
		return err
	}
	if err := writeTree(src, c.Out, edits); err != nil {
		return err
	}
	return writeModFile(c.GoMod, c.ModFile, c.Out)
}

// CopyEditNames are the names of the copy's edits, in Edits' order.
func CopyEditNames() []string {
	edits, _ := copyEdits(nil)
	names := make([]string, len(edits))
	for i, e := range edits {
		names[i] = e.Name
	}
	return names
}
