package goappfork

import (
	"embed"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// packages are the module's packages the wasm imports (GOOS=js go list
// -deps ./wasm); TestPackagesCoverTheApp keeps the list in step with the app.
var packages = []string{"pkg/app", "pkg/errors"}

// rootFiles are what the go command and the licence need of the module root.
var rootFiles = []string{"go.mod", "go.sum", "LICENSE"}

// notWasm keeps a go-app file out of wasm builds.
const notWasm = "//go:build !wasm\n\n"

// added holds the files the edits add, as add/PATH.txt: .txt, so that the
// go command does not build them here.
//
//go:embed add
var added embed.FS

// edit returns what the copy holds for go-app's file rel after edits, or
// keep=false to leave it out.
func edit(rel string, data []byte, edits []Edit) (out []byte, keep bool, err error) {
	for _, e := range edits {
		if slices.Contains(e.omit, rel) {
			return nil, false, nil
		}
		if slices.Contains(e.notWasm, rel) {
			data = append([]byte(notWasm), data...)
		}
		if rs := e.replace[rel]; rs != nil {
			s, err := apply(rel+" (edit "+e.Name+")", string(data), rs)
			if err != nil {
				return nil, false, err
			}
			data = []byte(s)
		}
	}
	return data, true, nil
}

// addedFile is the file an edit adds at rel in the copy.
func addedFile(rel string) ([]byte, error) {
	return added.ReadFile("add/" + rel + ".txt")
}

// writeTree writes the copy into a fresh directory beside out and then
// puts it in out's place, so a failed run leaves no half-written copy.
func writeTree(src, out string, edits []Edit) error {
	if err := checkReplaceable(src, out); err != nil {
		return err
	}
	files, err := sourceFiles(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), ".goappfork-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // gone already after the rename
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		data, keep, err := edit(rel, data, edits)
		if err != nil {
			return err
		}
		if keep {
			if err := writeFile(tmp, rel, data); err != nil {
				return err
			}
		}
	}
	for _, e := range edits {
		for _, rel := range e.add {
			data, err := addedFile(rel)
			if err != nil {
				return err
			}
			if err := writeFile(tmp, rel, data); err != nil {
				return err
			}
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

// sourceFiles lists, slash-separated and sorted, the files a build needs:
// the root files and the non-test Go files of the imported packages.
func sourceFiles(src string) ([]string, error) {
	files := append([]string(nil), rootFiles...)
	for _, pkg := range packages {
		entries, err := os.ReadDir(filepath.Join(src, filepath.FromSlash(pkg)))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if name := e.Name(); e.Type().IsRegular() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
				files = append(files, path.Join(pkg, name))
			}
		}
	}
	return files, nil
}

// writeFile writes data to dir/rel, writable whatever the source's mode (the
// module cache is read-only).
func writeFile(dir, rel string, data []byte) error {
	name := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// checkReplaceable refuses to delete anything but an earlier copy: out must
// be missing, empty, or hold go-app's go.mod, and must not be the source.
func checkReplaceable(src, out string) error {
	absSrc, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if absSrc == absOut {
		return fmt.Errorf("refusing to replace %s: it is the source", out)
	}
	entries, err := os.ReadDir(out)
	if os.IsNotExist(err) || err == nil && len(entries) == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	gomod, err := os.ReadFile(filepath.Join(out, "go.mod"))
	if err != nil || !strings.HasPrefix(string(gomod), "module "+ModulePath+"\n") {
		return fmt.Errorf("refusing to replace %s: it is not a copy of %s", out, ModulePath)
	}
	return nil
}
