package goappfork

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// writeModFile writes modFile, go.mod plus a replace of go-app by out, and
// its .sum twin, a copy of go.sum. The go command resolves a relative
// replacement against the main module's root even with -modfile, so the path
// is made relative to go.mod's directory. The modfile goes last: make uses it
// as the stamp of the whole run.
func writeModFile(gomod, modFile, out string) error {
	root, err := filepath.Abs(filepath.Dir(gomod))
	if err != nil {
		return err
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, absOut)
	if err != nil {
		return err
	}
	rel = filepath.ToSlash(rel)
	if !strings.HasPrefix(rel, "../") {
		rel = "./" + rel // a replacement without ./ would be a module path
	}
	mod, err := os.ReadFile(gomod)
	if err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(modFile), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(strings.TrimSuffix(modFile, ".mod")+".sum", sum, 0o644); err != nil {
		return err
	}
	var b bytes.Buffer
	b.Write(mod)
	if len(mod) > 0 && mod[len(mod)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "\n// Written by internal/goappfork for the wasm build: its copy of go-app.\nreplace %s => %s\n", ModulePath, strconv.Quote(rel))
	return os.WriteFile(modFile, b.Bytes(), 0o644)
}
