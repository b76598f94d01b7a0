package goappfork

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// originals are the SHA-256 sums of the v10.1.11 files the slim copy
// changes or leaves out: the edits are only known to be right for these.
var originals = map[string]string{
	"pkg/app/browser.go":      "e07e19b981ff246b07299d5aaa17ba58b58ab2ef41e3c85d8a1e3ca66a41a07e",
	"pkg/app/context.go":      "1165dc862aad17ba47a7050c7ce32401e6e86eecce1222bf22235f78cccbd1d4",
	"pkg/app/engine.go":       "8400019d85d00fb6a904a9214ab78e1874ead07bb7ec719c2c254955864db5b2",
	"pkg/app/crypto.go":       "c0fc14126207dc9fa15fb8869bd882874486654919835dc35d5bef8a6122aa97",
	"pkg/app/http.go":         "0601189a9f611378e9b24ab4bdf42780a03cbf95c1bbebd4171b523ddbe9a32d",
	"pkg/app/js_wasm.go":      "683db47f071e412509b54722ac5463f88b5dd8698aab3694e4b6ca53f12c7224",
	"pkg/app/resource.go":     "6b52ab4ec2f4171d403384bffe159e9ec22699933e768ef5868f2851a1b84baa",
	"pkg/app/route.go":        "3252c7f2876cba69c3fbb203b0b4d5770ddd4651cdaf3ad69e5c33bfd1ccf5bd",
	"pkg/app/state.go":        "b41c94e804ab69a8a6341d58c09ac79d8cc8b0022bddd6c74c0f107a9f31480b",
	"pkg/app/wasm.go":         "10117b07fb7147cdfcd97d1e07cd010da30914e2a622b73d0242b5d9019796f8",
	"pkg/app/storage.go":      "fd53ce1bb002f4751f5f6fcba3c921f6ee0f03d252a6172aa342c3e503875ea8",
	"pkg/app/notification.go": "3a3261afa80c606d57db2a27e7bb764b10eb5c723fa0ca4d1297ced8a1e0d8c6",
	"pkg/app/strings.go":      "8cc693cc67c74ca5db5c7b240296cc4b25ca85b0da9e4e09b34e461139ff6cab",
	"pkg/errors/errors.go":    "7db7046e211ac5e16625d615e12484dbc157ac0aa97cfd375fe0312be2b391ab",
}

// verifyOriginals refuses a source whose patched files are not those sums.
func verifyOriginals(src string) error {
	for _, rel := range slices.Sorted(maps.Keys(originals)) {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(rel)))
		if err != nil {
			return fmt.Errorf("%s is not go-app %s: %v", src, Version, err)
		}
		if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != originals[rel] {
			return fmt.Errorf("%s in %s differs from go-app %s's: check internal/goappfork's edits against it", rel, src, Version)
		}
	}
	return nil
}
