package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"

	"kvleak/internal/benchkit"
)

// goBenchArgs runs the engine benchmarks behind the interaction budgets.
var goBenchArgs = []string{"test", "-run", "^$", "-bench", "SendRequest|Cells|SnapshotAt", "-benchmem", "-count", "5", "./engine/"}

// runGoBench runs go test in the current module and returns the medians
// and the raw output.
func runGoBench(ctx context.Context) ([]benchkit.GoBench, string, error) {
	cmd := exec.CommandContext(ctx, "go", goBenchArgs...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, out.String(), err
	}
	gb, err := benchkit.ReadGoBench(bytes.NewReader(out.Bytes()))
	if err != nil {
		return nil, out.String(), err
	}
	return gb, out.String(), nil
}

// gitCommit is HEAD's hash and whether the work tree has changes; "" when
// git or the repository is missing.
func gitCommit(ctx context.Context) (string, bool) {
	head, err := exec.CommandContext(ctx, "git", "rev-parse", "HEAD").Output()
	if err != nil {
		return "", false
	}
	status, err := exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no").Output()
	return strings.TrimSpace(string(head)), err == nil && len(bytes.TrimSpace(status)) > 0
}
