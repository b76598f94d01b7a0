package sitegen

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// scopeManifest narrows the web manifest's scope to the prefix. go-app
// always writes "scope":"/", which under GitHub-Pages-style hosting would
// make the installed app claim every other site on the same origin.
func scopeManifest(dir, prefix string) error {
	if prefix == "" {
		return nil
	}
	path := filepath.Join(dir, "manifest.webmanifest")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	m["scope"] = prefix + "/"
	if b, err = json.Marshal(m); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
