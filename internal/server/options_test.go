package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalizePrefix(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{"", "", ""},
		{"/", "", ""},
		{"/kvleak", "/kvleak", ""},
		{"/kvleak/", "/kvleak", ""},
		{"/docs/kv-leak_1.0~x", "/docs/kv-leak_1.0~x", ""},
		{"kvleak", "", "must start with /"},
		{"/a/../b", "", `".." segments are not allowed`},
		{"/..", "", `".." segments are not allowed`},
		{"/a/./b", "", `"." segments are not allowed`},
		{"/a//b", "", "empty path segment"},
		{"/.git", "", "may not start with a dot"},
		{"/a b", "", "not allowed"},
		{`/a\b`, "", "not allowed"},
		{"/a%2fb", "", "not allowed"},
		{"/a?b", "", "not allowed"},
		{"/a\nb", "", "not allowed"},
		{"/" + string(make([]byte, 300)), "", "longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := NormalizePrefix(tc.in)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				assert.Contains(t, err.Error(), "invalid -prefix")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestNormalizeFrameAncestors(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{"", "*", ""},
		{"*", "*", ""},
		{"'self'", "'self'", ""},
		{"'self'   https://docs.example.com", "'self' https://docs.example.com", ""},
		{"https://*.example.com:8443 http://[::1]:80", "https://*.example.com:8443 http://[::1]:80", ""},
		{"'none'", "'none'", ""},
		{"'none' 'self'", "", "must stand alone"},
		{"'self'; script-src *", "", `character ';'`},
		{"a.com,b.com", "", `character ','`},
		{"a.com\nX-Evil: 1", "", "control characters"},
		{"'self'\thttps://a.com", "", "control characters"},
		{"'unsafe-inline'", "", "not allowed"},
		{"a.com\x00", "", "control characters"},
		{"a.com/é", "", "not allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := NormalizeFrameAncestors(tc.in)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestValidateAddr(t *testing.T) {
	tests := []struct {
		in      string
		wantErr string
	}{
		{"127.0.0.1:8080", ""},
		{":8080", ""},
		{"localhost:0", ""},
		{"[::1]:8080", ""},
		{"8080", "want host:port"},
		{"127.0.0.1", "want host:port"},
		{"127.0.0.1:http", "port must be a number"},
		{"127.0.0.1:70000", "port must be a number"},
		{"127.0.0.1:-1", "port must be a number"},
		{"a b:80", "bad host"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			err := ValidateAddr(tc.in)
			if tc.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
		})
	}
}

func TestNewRejectsUnusableSites(t *testing.T) {
	parent := t.TempDir()
	noIndex := filepath.Join(parent, "no-index")
	require.NoError(t, os.MkdirAll(filepath.Join(noIndex, "web"), 0o755))
	indexIsDir := filepath.Join(parent, "index-dir")
	require.NoError(t, os.MkdirAll(filepath.Join(indexIsDir, "index.html"), 0o755))
	aFile := filepath.Join(parent, "file")
	require.NoError(t, os.WriteFile(aFile, nil, 0o644))
	good := buildSite(t, 16).dir

	tests := []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{"empty dir option", Options{}, "no site folder given"},
		{"missing folder", Options{Dir: filepath.Join(parent, "missing")}, "does not exist"},
		{"not a folder", Options{Dir: aFile}, "is not a folder"},
		{"no index.html", Options{Dir: noIndex}, "has no index.html"},
		{"index.html is a folder", Options{Dir: indexIsDir}, "has no index.html"},
		{"bad prefix", Options{Dir: good, Prefix: "kvleak"}, "invalid -prefix"},
		{"bad frame-ancestors", Options{Dir: good, FrameAncestors: "*; x"}, "invalid -frame-ancestors"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
			assert.NotContains(t, err.Error(), "\n", "one-line message")
		})
	}
}
