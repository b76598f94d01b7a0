package sitegen

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// copyStatic puts static/*.html at the site root (pages such as
// embed-example.html live next to index.html) and everything else under
// web/, where go-app resolves "/web/..." resources. It refuses to overwrite
// a file go-app generated.
func copyStatic(staticDir, out string) error {
	return filepath.WalkDir(staticDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || skip(d.Name()) {
			return err
		}
		rel, err := filepath.Rel(staticDir, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(out, "web", rel)
		if filepath.Dir(rel) == "." && filepath.Ext(rel) == ".html" {
			dst = filepath.Join(out, rel)
			if _, err := os.Stat(dst); err == nil {
				return fmt.Errorf("static/%s would overwrite the generated %s", rel, rel)
			}
		}
		return copyFile(path, dst)
	})
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
