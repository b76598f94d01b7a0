package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScanHTML(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want pageScan
	}{
		{"external script only", `<script defer src="/app.js"></script>`, pageScan{}},
		{"inline script", `<script>a()</script>`, pageScan{scripts: []string{"a()"}}},
		{"upper-case tags", `<SCRIPT type="module">b()</ScRiPt>`, pageScan{scripts: []string{"b()"}}},
		{"empty inline script", `<script></script>`, pageScan{scripts: []string{""}}},
		{"script text is raw", `<script>if (a<b) x("</p>")</script>`, pageScan{scripts: []string{`if (a<b) x("</p>")`}}},
		{"comment skipped", `<!-- <script>no()</script> --><p>`, pageScan{}},
		{"style element", `<style>h1{}</style>`, pageScan{styles: []string{"h1{}"}}},
		{"style attribute decoded", `<p style='a:&quot;b&quot;'>`, pageScan{styleAttrs: []string{`a:"b"`}}},
		{"unquoted attribute", `<div style=color:red>`, pageScan{styleAttrs: []string{"color:red"}}},
		{"remote image", `<img src="https://x.example/i.png">`, pageScan{remote: []string{"https://x.example/i.png"}}},
		{"remote stylesheet", `<link rel="stylesheet" href="//cdn.example/a.css">`, pageScan{remote: []string{"//cdn.example/a.css"}}},
		{"og url is not a load", `<link rel="canonical" href="https://x.example/"><meta content="https://">`, pageScan{}},
		{"inline handler", `<button onclick="go()">`, pageScan{handlers: []string{"<button onclick>"}}},
		{"unterminated", `<script>x`, pageScan{scripts: []string{"x"}}},
		{"lone angle bracket", `a < b <`, pageScan{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, scanHTML(tc.doc))
		})
	}
}
