package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every command's -h, and kvleak's own, prints its help on stdout and
// exits 0 (testdata/help/*.golden; -update rewrites them): the usage line,
// every flag with what it means and its default, an example and the exit
// status.
func TestHelp(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		// flags the help must list, each with its meaning; defaults, as
		// the help writes them.
		flags, defaults []string
	}{
		{"kvleak", []string{"-h"}, nil, nil},
		{"kvleak-help", []string{"help"}, nil, nil},
		{"check", []string{"check", "-h"}, []string{"prefill", "decode"}, nil},
		{"replay", []string{"replay", "-h"},
			[]string{"prefill", "decode", "preset", "link", "context", "prefill-pool", "decode-pool", "page", "reserve", "instances", "pairs", "tenants", "share", "seed", "prefill-tps", "tpot-ms", "fix", "json"},
			[]string{`(default glm-launch)`, `(default glm-launch's)`, `(default 512, SGLang's and glm-launch's)`, `(default 1)`, `(default 20000)`, `(default 30)`, `(default "fixed")`}},
		{"trace", []string{"trace", "-h"}, []string{"preset", "link", "file"}, []string{"(default demo)"}},
		{"demo", []string{"demo", "-h"}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			require.Equal(t, 0, run(c.args, &out, &errOut))
			assert.Empty(t, errOut.String())
			got := out.String()
			golden := c.name
			if c.name == "kvleak-help" {
				golden = "kvleak"
			}
			assertGolden(t, filepath.Join("testdata", "help", golden+".golden"), got)

			assert.Regexp(t, `(?m)^usage: kvleak|^Usage:`, got)
			assert.Regexp(t, `(?m)^Examples?:\n\n\tkvleak `, got)
			assert.Contains(t, got, "Exit status: 0 ")
			for _, f := range c.flags {
				m := regexp.MustCompile(`(?m)^  -` + regexp.QuoteMeta(f) + `( \S+)?\n    \t(.+)$`).FindStringSubmatch(got)
				if assert.NotNil(t, m, "-%s is listed", f) {
					assert.Greater(t, len(strings.Fields(m[2])), 3, "-%s says what it means", f)
				}
			}
			for _, d := range c.defaults {
				assert.Contains(t, got, d)
			}
		})
	}
}

// assertGolden compares got with a golden file, which -update rewrites.
func assertGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)
}

// Each command kvleak -h names has a -h of its own.
func TestHelpNamesEveryCommand(t *testing.T) {
	for _, cmd := range []string{"demo", "check", "replay", "trace", "challenge"} {
		assert.Regexp(t, `(?m)^\t`+cmd+` +\S`, topHelp)
		var out, errOut bytes.Buffer
		assert.Equal(t, 0, run([]string{cmd, "-help"}, &out, &errOut), cmd)
		assert.True(t, strings.HasPrefix(out.String(), "usage: kvleak "+cmd), cmd)
	}
}
