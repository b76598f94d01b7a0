#!/bin/sh
# copy.sh OUT MODFILE [PATCH...]: go-app, at the release go.mod requires,
# copied from the module cache to OUT (its go.mod, LICENSE and pkg/, without
# go-app's own tests) with each PATCH applied by git apply, then MODFILE:
# go.mod plus a replace of go-app by OUT, and its .sum twin, a copy of go.sum.
# Run from the repository's root; OUT is replaced only when every patch
# applied, and MODFILE is written last, so make can take it as the stamp.
set -eu
out=$1 modfile=$2
shift 2
mod=github.com/maxence-charriere/go-app/v10
go mod download $mod
src=$(go list -m -f '{{.Dir}}' $mod)
tmp=$out.new
rm -rf "$tmp"
mkdir -p "$tmp"
cp -R "$src/go.mod" "$src/go.sum" "$src/LICENSE" "$src/pkg" "$tmp"
chmod -R u+w "$tmp"
find "$tmp" -name '*_test.go' -exec rm {} +
for p; do
	case $p in /*) ;; *) p=$PWD/$p ;; esac
	# The ceiling keeps git from finding this repository around the copy:
	# inside one, git apply reads a patch's paths from the repository's root.
	(cd "$tmp" && GIT_CEILING_DIRECTORIES=$(dirname "$PWD") git apply "$p") || {
		echo "copy.sh: $p does not apply to $mod as go.mod requires it: see docs/upgrading-go-app.md" >&2
		exit 1
	}
done
rm -rf "$out"
mv "$tmp" "$out"
cp go.sum "${modfile%.mod}.sum"
cp go.mod "$modfile.new"
go mod edit -replace "$mod=$out" "$modfile.new"
mv "$modfile.new" "$modfile"
