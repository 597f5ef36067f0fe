#!/usr/bin/env bash
# Checks that this copy of expr is the release named in VERSION with
# lazy-init.patch applied and nothing else: every file here is the
# release's file, with its import paths moved under this folder and a
# first line "//go:build go1.18" (the language version of the release's
# go.mod, which the files keep inside this module), and their differences
# (white space aside: gofmt indents the tables that moved into functions)
# are exactly the patch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=$(cat "$here/VERSION")
module=github.com/expr-lang/expr
ours=github.com/hookshim/hookshim/third_party/expr
upstream=$(cd "$(mktemp -d)" && GOFLAGS=-mod=mod go mod download -json "$module@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$upstream" ] || { echo "check.sh: cannot download expr $version" >&2; exit 1; }
cd "$here"
got=$(mktemp)
moved=$(mktemp)
mine=$(mktemp)
trap 'rm -f "$got" "$moved" "$mine"' EXIT
for f in $(find . -name '*.go' | sed 's|^\./||' | LC_ALL=C sort); do
	[ -f "$upstream/$f" ] || { echo "check.sh: $f is not in expr $version" >&2; exit 1; }
	sed "s#\"$module#\"$ours#g" "$upstream/$f" >"$moved"
	if [ "$(head -1 "$f")" = "//go:build go1.18" ]; then
		tail -n +3 "$f" >"$mine"
	else
		cp "$f" "$mine"
	fi
	diff -uw --label "a/$f" --label "b/$f" "$moved" "$mine" >>"$got" || true
done
cmp -s LICENSE "$upstream/LICENSE" || { echo "check.sh: LICENSE differs from expr $version" >&2; exit 1; }
if ! diff -u lazy-init.patch "$got"; then
	echo "check.sh: this copy is not expr $version with lazy-init.patch" >&2
	exit 1
fi
echo "third_party/expr: expr $version with lazy-init.patch"
