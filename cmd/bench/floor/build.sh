#!/usr/bin/env bash
# Builds two reference pages for measuring start-up side by side with the playground
# (make bench builds them into build/floor and measures them in the same run):
#   $OUT/plain  — the smallest Go wasm page (syscall/js only): a #send button that changes the page
#   $OUT/goapp  — the smallest go-app v10.1.11 page, built the stock way (GenerateStaticWebsite)
# Serve each folder with any static server (for example `python3 -m http.server -d $OUT/plain`)
# and measure them in the same run as the playground. Usage: build.sh [OUT] (default /tmp/floor)
set -eu
out=${1:-/tmp/floor}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"; mkdir -p "$out/plain" "$out/goapp/web"
out=$(cd "$out" && pwd) # the builds below run in the sources' folders
cp "$here/plain/index.html" "$out/plain/"; chmod u+w "$out/plain/index.html"
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/plain/" 2>/dev/null || cp "$(go env GOROOT)/misc/wasm/wasm_exec.js" "$out/plain/"
(cd "$here/plain" && GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/plain/floor.wasm" .)
(cd "$here/goapp" && go run . "$out/goapp" && GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/goapp/web/app.wasm" .)
echo "built $out/plain and $out/goapp"
