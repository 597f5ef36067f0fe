#!/bin/sh
# Installs hookshim and hookshim-remote from a release archive, after
# checking its SHA-256 against the release's checksums.txt.
#
#   curl -fsSL <release>/install.sh | sh
#   sh install.sh [-b FOLDER]        (default: ~/.local/bin)
#
# HOOKSHIM_BASE_URL: where the release files are (default: this version's
# GitHub release; file:// works with curl); HOOKSHIM_VERSION: which.
set -eu
version=${HOOKSHIM_VERSION:-@VERSION@}
base=${HOOKSHIM_BASE_URL:-https://github.com/hookshim/hookshim/releases/download/$version}
bindir=${HOME}/.local/bin
while [ $# -gt 0 ]; do
	case $1 in
	-b) bindir=$2; shift 2 ;;
	*) echo "hookshim-install: error: unknown argument $1 (usage: install.sh [-b FOLDER])" >&2; exit 2 ;;
	esac
done

fail() { echo "hookshim-install: error: $*" >&2; exit 1; }

case $(uname -s) in
Linux) os=linux ;;
Darwin) os=darwin ;;
*) fail "no release archive for $(uname -s): use a Windows zip from the release, or go install" ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) fail "no release archive for $(uname -m)" ;;
esac

fetch() { # URL FILE
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --proto '=https,file,http' -o "$2" "$1"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$2" "$1"
	else
		fail "neither curl nor wget is installed"
	fi
}

sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d' ' -f1
	else
		fail "neither sha256sum nor shasum is installed: cannot check the archive"
	fi
}

name=hookshim_${version}_${os}_${arch}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fetch "$base/checksums.txt" "$tmp/checksums.txt" || fail "cannot download $base/checksums.txt"
fetch "$base/$name.tar.gz" "$tmp/$name.tar.gz" || fail "cannot download $base/$name.tar.gz"
want=$(awk -v f="$name.tar.gz" '$2 == f {print $1}' "$tmp/checksums.txt")
[ -n "$want" ] || fail "$name.tar.gz is not in checksums.txt"
got=$(sha256 "$tmp/$name.tar.gz")
[ "$got" = "$want" ] || fail "$name.tar.gz: SHA-256 $got, checksums.txt says $want: nothing installed"
tar -C "$tmp" -xzf "$tmp/$name.tar.gz"
mkdir -p "$bindir"
for prog in hookshim hookshim-remote; do
	# A new file renamed over the old: a hook running the old one is not
	# cut off mid-call.
	cp "$tmp/$name/$prog" "$bindir/.$prog.new"
	chmod 755 "$bindir/.$prog.new"
	mv -f "$bindir/.$prog.new" "$bindir/$prog"
done
echo "hookshim-install: installed hookshim and hookshim-remote $version into $bindir"
case ":$PATH:" in
*":$bindir:"*) ;;
*) echo "hookshim-install: hint: $bindir is not in PATH; add it, or run $bindir/hookshim" >&2 ;;
esac
echo "hookshim-install: hint: completions are in the release archive's completions/ folder, or: hookshim completion bash|zsh|fish" >&2
