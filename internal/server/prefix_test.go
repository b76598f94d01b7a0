package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrefixHosting(t *testing.T) {
	fx := buildSite(t, 1024)
	for _, prefix := range []string{"/kvleak", "/kvleak/"} {
		addr := startServer(t, Options{Dir: fx.dir, Prefix: prefix}, Timeouts{})
		tests := []struct {
			target       string
			wantStatus   int
			wantFile     string
			wantLocation string
		}{
			{"/kvleak/", 200, "index.html", ""},
			{"/kvleak/index.html", 200, "index.html", ""},
			{"/kvleak/foo", 200, "foo.html", ""},
			{"/kvleak/web/app.wasm", 200, "web/app.wasm", ""},
			{"/kvleak", 301, "", "/kvleak/"},
			{"/kvleak?n=3&mode=leak", 301, "", "/kvleak/?n=3&mode=leak"},
			{"/", 404, "", ""},
			{"/index.html", 404, "", ""},
			{"/web/app.wasm", 404, "", ""},
			{"/kvleakx/", 404, "", ""},
			{"/other/kvleak/", 404, "", ""},
			{"/kvleak/.git/config", 404, "", ""},
		}
		for _, tc := range tests {
			t.Run(prefix+" "+tc.target, func(t *testing.T) {
				resp, body := do(t, "GET", "http://"+addr+tc.target, nil)
				require.Equal(t, tc.wantStatus, resp.StatusCode)
				assert.Equal(t, tc.wantLocation, resp.Header.Get("Location"))
				if tc.wantFile != "" {
					assert.Equal(t, fx.files[tc.wantFile], body)
				}
				assert.NotEmpty(t, resp.Header.Get("Content-Security-Policy"))
			})
		}
	}
}
