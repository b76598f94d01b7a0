package goappfork

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// requiredVersion is the go-app release gomod requires. A go.mod that
// already replaces go-app is refused: the copy is made of the pristine
// module. `go mod edit -json` parses go.mod offline, with the go command's
// own parser.
func requiredVersion(gomod string) (string, error) {
	var m struct {
		Require []struct{ Path, Version string }
		Replace []struct{ Old struct{ Path string } }
	}
	if err := goJSON("", &m, "mod", "edit", "-json", gomod); err != nil {
		return "", err
	}
	for _, r := range m.Replace {
		if r.Old.Path == ModulePath {
			return "", fmt.Errorf("%s already replaces %s; goappfork copies the pristine module only", gomod, ModulePath)
		}
	}
	for _, r := range m.Require {
		if r.Path == ModulePath {
			return r.Version, nil
		}
	}
	return "", fmt.Errorf("%s does not require %s", gomod, ModulePath)
}

// moduleDir returns go-app's directory in the module cache, downloading it
// (checked against go.sum) if needed.
func moduleDir(root, version string) (string, error) {
	var m struct{ Dir string }
	if err := goJSON(root, &m, "mod", "download", "-json", ModulePath+"@"+version); err != nil {
		return "", err
	}
	if m.Dir == "" {
		return "", fmt.Errorf("go mod download gave no directory for %s@%s", ModulePath, version)
	}
	return m.Dir, nil
}

// goJSON runs the go command in dir and decodes its JSON output into v.
// Failures are one line: the command and the first line it printed.
func goJSON(dir string, v any, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg, _, _ := strings.Cut(strings.TrimSpace(string(ee.Stderr)), "\n")
			var failed struct{ Error string } // go mod download -json reports here
			if msg == "" && json.Unmarshal(out, &failed) == nil {
				msg = failed.Error
			}
			if msg != "" {
				err = errors.New(msg)
			}
		}
		return fmt.Errorf("go %s: %v", strings.Join(args, " "), err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		return fmt.Errorf("go %s: %v", strings.Join(args, " "), err)
	}
	return nil
}
