package sitegen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// editPages rewrites each page go-app prerendered in dir with edit, writing
// back only the pages it changed.
func editPages(dir string, edit func(page []byte) ([]byte, error)) error {
	pages, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		return err
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out, err := edit(b)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(p), err)
		}
		if !bytes.Equal(out, b) {
			if err := os.WriteFile(p, out, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
