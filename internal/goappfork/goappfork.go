// Package goappfork writes the copy of go-app that the wasm build links.
//
// go-app's pkg/app keeps its server half (http.go, resource.go) in the same
// package as the client, so a wasm that imports it links net/http and, through
// it, crypto/tls, x509 and math/big: about 340 KB of the brotli wasm. The copy
// builds those two files for !wasm only, adds the three helpers the client
// still needs (client_wasm.go.txt), and a second modfile points the wasm build
// at it. go.mod, go.sum and native builds keep the pristine module.
//
// It also leaves out client features the playground does not use and that
// alone linked the uuid module, crypto/*, math/big and regexp (about 176 KB
// of the brotli wasm), and encoding/json (with the playground's own JSON on
// internal/jsonlite, 76 KB more): see edits.go.
//
// It is written for one go-app version and refuses any other, or files that
// differ from that version's, so an upgrade makes someone look again.
package goappfork

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

const (
	// ModulePath and Version are the go-app this package was written for.
	ModulePath = "github.com/maxence-charriere/go-app/v10"
	Version    = "v10.1.11"
)

// Config says where to read and write. Relative paths are taken from the
// working directory.
type Config struct {
	GoMod   string // the main module's go.mod; its go.sum sits next to it
	Src     string // go-app's module directory; "" = the module cache's
	Out     string // where the slim copy goes; replaced on every run
	ModFile string // the modfile for the wasm build; its .sum twin is written too
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
	return nil
}

// Run checks the go-app requirement and sources, then writes the slim copy
// and, last, the modfile (so the modfile can stamp both for make).
func Run(c Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if err := checkRequirement(c.GoMod); err != nil {
		return err
	}
	src := c.Src
	if src == "" {
		var err error
		if src, err = moduleDir(filepath.Dir(c.GoMod)); err != nil {
			return err
		}
	}
	if err := verifyOriginals(src); err != nil {
		return err
	}
	if err := writeTree(src, c.Out); err != nil {
		return err
	}
	return writeModFile(c.GoMod, c.ModFile, c.Out)
}
