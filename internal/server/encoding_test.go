package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNegotiate(t *testing.T) {
	tests := []struct {
		header string
		want   []string // Content-Encoding values in order; "" is identity
	}{
		{"", []string{""}},
		{"br", []string{"br", ""}},
		{"gzip, deflate, br, zstd", []string{"br", "gzip", ""}},
		{"gzip;q=1.0, br;q=0.8", []string{"gzip", "br", ""}},
		{"br;q=0", []string{""}},
		{"BR;Q=0.5, GZIP", []string{"gzip", "br", ""}},
		{"*", []string{"br", "gzip", ""}},
		{"*;q=0.5, br;q=0", []string{"gzip", ""}},
		{"identity;q=0, *;q=0", []string{""}}, // identity is the last resort anyway
		{"identity, br;q=0.5", []string{"", "br"}},
		{"br;q=bogus, gzip", []string{"gzip", ""}}, // malformed element ignored
		{"br;q=2", []string{""}},                   // out-of-range q ignored
		{" , ;, gzip ; q=0.3 ", []string{"gzip", ""}},
	}
	for _, tc := range tests {
		t.Run(tc.header, func(t *testing.T) {
			var got []string
			for _, c := range negotiate(tc.header) {
				got = append(got, c.name)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
