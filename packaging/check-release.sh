#!/bin/sh
# Checks what make release wrote into dist/release/: every archive holds
# both programs, the licence, the README and the three completions; the
# checksums hold; the SBOM is CycloneDX; the Homebrew formula parses as
# Ruby; the archive for this machine runs and reports the version, commit
# and date it was stamped with.
set -eu
out=dist/release
version=$1 commit=$2
cd "$out"
sha256sum -c --quiet checksums.txt
grep -q '"bomFormat": *"CycloneDX"' ./*.cdx.json
n=0
for a in *.tar.gz *.zip; do
	[ -e "$a" ] || continue
	n=$((n + 1))
	name=${a%.tar.gz}
	name=${name%.zip}
	case $a in
	*.zip) list=$(unzip -Z1 "$a") ext=.exe ;;
	*) list=$(tar -tzf "$a") ext= ;;
	esac
	for f in "hookshim$ext" "hookshim-remote$ext" LICENSE README.md completions/hookshim.bash completions/_hookshim completions/hookshim.fish; do
		echo "$list" | grep -qx "$name/$f" || { echo "check-release: $a lacks $f" >&2; exit 1; }
	done
	grep -q " $a\$" checksums.txt || { echo "check-release: $a is not in checksums.txt" >&2; exit 1; }
done
# The formula names four archives, each by the checksum it has.
[ "$(grep -c '^      sha256 "[0-9a-f]\{64\}"$' hookshim.rb)" = 4 ] || { echo "check-release: hookshim.rb lacks a checksum" >&2; exit 1; }
grep '^      sha256 ' hookshim.rb | cut -d'"' -f2 | while read -r s; do
	grep -q "^$s " checksums.txt || { echo "check-release: hookshim.rb's $s is not in checksums.txt" >&2; exit 1; }
done
# The formula is Ruby: where Ruby is installed (CI installs it), it must
# parse; CI=true makes a missing Ruby fail.
if command -v ruby >/dev/null 2>&1; then
	ruby -c hookshim.rb >/dev/null || { echo "check-release: hookshim.rb is not valid Ruby" >&2; exit 1; }
elif [ -n "${CI:-}" ]; then
	echo "check-release: ruby is not installed: hookshim.rb cannot be checked" >&2
	exit 1
else
	echo "check-release: ruby is not installed: hookshim.rb's syntax is not checked" >&2
fi
grep -q '@VERSION@' install.sh && { echo "check-release: install.sh names no version" >&2; exit 1; }
[ "$n" -ge 6 ] || { echo "check-release: $n archives, want 6" >&2; exit 1; }

os=$(go env GOOS) arch=$(go env GOARCH)
here=hookshim_${version}_${os}_${arch}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xzf "$here.tar.gz"
for prog in hookshim hookshim-remote; do
	v=$("$tmp/$here/$prog" version)
	echo "$v" | grep -qx "$prog $version" || { echo "check-release: $prog version: $v" >&2; exit 1; }
	echo "$v" | grep -qx "  commit: $commit" || { echo "check-release: $prog commit: $v" >&2; exit 1; }
	echo "$v" | grep -q '^  date:   ' || { echo "check-release: $prog date: $v" >&2; exit 1; }
done
echo "check-release: $n archives, checksums, SBOM and $here's version hold"
