package goappfork

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// upgradeDoc says how to move to a new go-app release.
const upgradeDoc = "docs/upgrading-go-app.md"

// hashes are, per go-app release the edits were checked against, the
// SHA-256 of each file they touch (editedFiles). A release is added by
// checking every edit against it and pasting the row `goappfork -hashes`
// prints (upgradeDoc).
var hashes = map[string]map[string]string{
	"v10.1.11": {
		"pkg/app/browser.go":      "e07e19b981ff246b07299d5aaa17ba58b58ab2ef41e3c85d8a1e3ca66a41a07e",
		"pkg/app/context.go":      "1165dc862aad17ba47a7050c7ce32401e6e86eecce1222bf22235f78cccbd1d4",
		"pkg/app/crypto.go":       "c0fc14126207dc9fa15fb8869bd882874486654919835dc35d5bef8a6122aa97",
		"pkg/app/engine.go":       "8400019d85d00fb6a904a9214ab78e1874ead07bb7ec719c2c254955864db5b2",
		"pkg/app/http.go":         "0601189a9f611378e9b24ab4bdf42780a03cbf95c1bbebd4171b523ddbe9a32d",
		"pkg/app/notification.go": "3a3261afa80c606d57db2a27e7bb764b10eb5c723fa0ca4d1297ced8a1e0d8c6",
		"pkg/app/resource.go":     "6b52ab4ec2f4171d403384bffe159e9ec22699933e768ef5868f2851a1b84baa",
		"pkg/app/route.go":        "3252c7f2876cba69c3fbb203b0b4d5770ddd4651cdaf3ad69e5c33bfd1ccf5bd",
		"pkg/app/scripts.go":      "1d29dee2456182b84302e50e38550462a540b3a39d66ba6f135c9af68a64dbee",
		"pkg/app/state.go":        "b41c94e804ab69a8a6341d58c09ac79d8cc8b0022bddd6c74c0f107a9f31480b",
		"pkg/app/storage.go":      "fd53ce1bb002f4751f5f6fcba3c921f6ee0f03d252a6172aa342c3e503875ea8",
		"pkg/app/strings.go":      "8cc693cc67c74ca5db5c7b240296cc4b25ca85b0da9e4e09b34e461139ff6cab",
		"pkg/app/wasm.go":         "10117b07fb7147cdfcd97d1e07cd010da30914e2a622b73d0242b5d9019796f8",
		"pkg/errors/errors.go":    "7db7046e211ac5e16625d615e12484dbc157ac0aa97cfd375fe0312be2b391ab",
	},
}

// editedFiles are the go-app files the edits change, build for !wasm only
// or leave out, and the one that holds the scripts, sorted.
func editedFiles() []string {
	files := map[string]bool{scriptsSource: true}
	for _, e := range Edits {
		for rel := range e.replace {
			files[rel] = true
		}
		for _, rel := range slices.Concat(e.notWasm, e.omit) {
			files[rel] = true
		}
	}
	return slices.Sorted(maps.Keys(files))
}

// knownVersions lists the releases in hashes, sorted.
func knownVersions() string {
	return strings.Join(slices.Sorted(maps.Keys(hashes)), ", ")
}

// checkVersion refuses a release the edits were not checked against.
func checkVersion(gomod, version string) error {
	if _, ok := hashes[version]; !ok {
		return fmt.Errorf("%s requires %s %s, which internal/goappfork's edits were not checked against (known: %s): see %s",
			gomod, ModulePath, version, knownVersions(), upgradeDoc)
	}
	return nil
}

// verifyFiles refuses a source whose edited files are not version's.
func verifyFiles(src, version string) error {
	sums, err := fileHashes(src)
	if err != nil {
		return fmt.Errorf("%s is not go-app %s: %v", src, version, err)
	}
	for _, rel := range editedFiles() {
		if sums[rel] != hashes[version][rel] {
			return fmt.Errorf("%s in %s differs from go-app %s's: check internal/goappfork's edits against it (%s)", rel, src, version, upgradeDoc)
		}
	}
	return nil
}

// fileHashes are the SHA-256 sums of src's edited files.
func fileHashes(src string) (map[string]string, error) {
	sums := map[string]string{}
	for _, rel := range editedFiles() {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		sums[rel] = hex.EncodeToString(sum[:])
	}
	return sums, nil
}

// HashRow is the row of hashes for the go-app release that gomod requires,
// read from the module cache, as Go source to paste into hashes. A file no
// known release has in that form is marked for review.
func HashRow(gomod string) (string, error) {
	version, err := requiredVersion(gomod)
	if err != nil {
		return "", err
	}
	src, err := moduleDir(filepath.Dir(gomod), version)
	if err != nil {
		return "", err
	}
	sums, err := fileHashes(src)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\t%q: {\n", version)
	for _, rel := range editedFiles() {
		fmt.Fprintf(&b, "\t\t%q: %q,%s\n", rel, sums[rel], sameAs(rel, sums[rel]))
	}
	b.WriteString("\t},\n")
	return b.String(), nil
}

// sameAs says which known releases have rel with sum, as a comment.
func sameAs(rel, sum string) string {
	var same []string
	for _, v := range slices.Sorted(maps.Keys(hashes)) {
		if hashes[v][rel] == sum {
			same = append(same, v)
		}
	}
	if len(same) == 0 {
		return " // changed: check the edits of this file"
	}
	return " // as in " + strings.Join(same, ", ")
}
