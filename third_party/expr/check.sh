#!/usr/bin/env bash
# Checks that this copy of expr is the release named in the root go.mod
# with lazy-init.patch applied and nothing else: every file here is the
# release's file, and their differences (white space aside: gofmt indents
# the tables that moved into functions) are exactly the patch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=$(cd "$root" && go list -m -f '{{.Version}}' github.com/expr-lang/expr)
upstream=$(cd "$(mktemp -d)" && GOFLAGS=-mod=mod go mod download -json "github.com/expr-lang/expr@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$upstream" ] || { echo "check.sh: cannot download expr $version" >&2; exit 1; }
cd "$here"
got=$(mktemp)
trap 'rm -f "$got"' EXIT
for f in $(find . -name '*.go' | sed 's|^\./||' | LC_ALL=C sort); do
	[ -f "$upstream/$f" ] || { echo "check.sh: $f is not in expr $version" >&2; exit 1; }
	diff -uw --label "a/$f" --label "b/$f" "$upstream/$f" "$f" >>"$got" || true
done
cmp -s LICENSE "$upstream/LICENSE" || { echo "check.sh: LICENSE differs from expr $version" >&2; exit 1; }
if ! diff -u lazy-init.patch "$got"; then
	echo "check.sh: this copy is not expr $version with lazy-init.patch" >&2
	exit 1
fi
echo "third_party/expr: expr $version with lazy-init.patch"
