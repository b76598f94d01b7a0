package sitegen

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
)

// Version is a content hash of everything that ends up in the site: the
// wasm, every static file (path and bytes), the prefix, the domain, the
// page metadata, the edits of go-app's scripts and the tags of the
// head (preload.go). go-app treats a new version as an update, so a
// rebuild with no change must give the same one (a timestamp would nag
// users needlessly).
func Version(wasm []byte, staticDir, prefix, domain string) (string, error) {
	return version(wasm, staticDir, prefix, domain, scriptEdits(prefix))
}

func version(wasm []byte, staticDir, prefix, domain string, edits []scriptEdit) (string, error) {
	h := sha256.New()
	for _, e := range edits {
		field(h, []byte(e.old))
		field(h, []byte(e.new))
	}
	for _, tag := range headTags(prefix, len(wasm)) {
		field(h, []byte(tag))
	}
	field(h, []byte("wasm"))
	field(h, wasm)
	field(h, []byte("prefix"))
	field(h, []byte(prefix))
	field(h, []byte("domain"))
	field(h, []byte(domain))
	for _, s := range []string{meta.name, meta.short, meta.title, meta.desc, meta.bg, meta.theme, meta.loading} {
		field(h, []byte(s))
	}
	err := filepath.WalkDir(staticDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || skip(d.Name()) {
			return err
		}
		rel, err := filepath.Rel(staticDir, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		field(h, []byte(filepath.ToSlash(rel)))
		field(h, b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// field writes b length-prefixed, so ("ab","c") and ("a","bc") differ.
func field(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}

// skip leaves out dotfiles (.gitkeep, editor droppings) from the site.
func skip(name string) bool { return len(name) > 0 && name[0] == '.' }
