package sitegen

import (
	"os"
	"path/filepath"

	"kvleak/internal/goappfork"
)

// editScripts makes goappfork's edits in the scripts go-app wrote to dir
// for a site under prefix. An edit that no longer matches fails the build
// and leaves its script as it was.
func editScripts(dir, prefix string) error {
	for _, script := range []string{goappfork.AppJS, goappfork.WorkerJS} {
		path := filepath.Join(dir, script)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		js, err := goappfork.EditScript(script, string(b), prefix)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
			return err
		}
	}
	return nil
}
