package main

import (
	"bytes"
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFlags(t *testing.T) {
	defaults := config{addr: "127.0.0.1:8080", dir: "build/site", frameAncestors: "*"}
	tests := []struct {
		name    string
		args    []string
		want    config
		wantErr string
	}{
		{"defaults", nil, defaults, ""},
		{"all set", []string{"-addr", ":9000", "-dir", "out", "-prefix", "/kvleak/", "-frame-ancestors", "'self' https://docs.example.com", "-access-log"},
			config{addr: ":9000", dir: "out", prefix: "/kvleak", frameAncestors: "'self' https://docs.example.com", accessLog: true}, ""},
		{"root prefix", []string{"-prefix", "/"}, defaults, ""},
		{"prefix without slash", []string{"-prefix", "kvleak"}, config{}, `invalid -prefix "kvleak": must start with /`},
		{"prefix with dot-dot", []string{"-prefix", "/a/../b"}, config{}, `".." segments are not allowed`},
		{"prefix with encoded slash", []string{"-prefix", "/a%2fb"}, config{}, "not allowed"},
		{"address without port", []string{"-addr", "localhost"}, config{}, `invalid -addr "localhost": want host:port`},
		{"address with bad port", []string{"-addr", "127.0.0.1:99999"}, config{}, "port must be a number"},
		{"frame-ancestors with semicolon", []string{"-frame-ancestors", "'self'; script-src *"}, config{}, "would end the CSP directive"},
		{"frame-ancestors with newline", []string{"-frame-ancestors", "a.com\nb"}, config{}, "control characters"},
		{"empty dir", []string{"-dir", ""}, config{}, "invalid -dir: empty"},
		{"unknown flag", []string{"-port", "80"}, config{}, "flag provided but not defined: -port"},
		{"stray argument", []string{"build/site"}, config{}, `unexpected argument "build/site"`},
		{"bool flag given a value", []string{"-access-log=maybe"}, config{}, "invalid boolean value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var usage bytes.Buffer
			got, err := parseFlags(tc.args, &usage)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				assert.NotContains(t, err.Error(), "\n", "one-line message")
				assert.Empty(t, usage.String(), "no usage dump on errors")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParseFlagsHelp(t *testing.T) {
	var usage bytes.Buffer
	_, err := parseFlags([]string{"-h"}, &usage)
	require.ErrorIs(t, err, flag.ErrHelp)
	for _, name := range []string{"-addr", "-dir", "-prefix", "-frame-ancestors", "-access-log"} {
		assert.Contains(t, usage.String(), name)
	}
}
