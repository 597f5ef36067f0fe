#!/bin/sh
# Runs dist/release/install.sh against the release folder itself: from
# file:// with curl, from a server on 127.0.0.1 with wget, and refuses an
# archive whose checksum does not match.
set -eu
rel=$(cd dist/release && pwd)
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
HOOKSHIM_BASE_URL=file://$rel sh "$rel/install.sh" -b "$tmp/a" 2>/dev/null
"$tmp/a/hookshim" version | grep -q '^hookshim ' && "$tmp/a/hookshim-remote" version | grep -q '^hookshim-remote '

if command -v wget >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	(cd "$rel" && exec timeout 120 python3 -m http.server -b 127.0.0.1 "$port") >/dev/null 2>&1 &
	pid=$!
	i=0
	until wget -q -O /dev/null "http://127.0.0.1:$port/checksums.txt"; do
		i=$((i + 1)); [ $i -lt 100 ] || { echo "install-test: no server" >&2; exit 1; }; sleep 0.2
	done
	mkdir -p "$tmp/nocurl"
	for t in sh uname mktemp awk cut tar gzip sha256sum mkdir cp chmod mv rm cat wget; do ln -s "$(command -v $t)" "$tmp/nocurl/$t"; done
	PATH=$tmp/nocurl HOOKSHIM_BASE_URL=http://127.0.0.1:$port sh "$rel/install.sh" -b "$tmp/b" 2>/dev/null
	"$tmp/b/hookshim" version | grep -q '^hookshim '
fi

# A tampered archive is refused, and nothing is installed.
cp -r "$rel" "$tmp/bad"
for f in "$tmp"/bad/*_linux_*.tar.gz "$tmp"/bad/*_darwin_*.tar.gz; do echo x >>"$f"; done
if HOOKSHIM_BASE_URL=file://$tmp/bad sh "$rel/install.sh" -b "$tmp/c" 2>"$tmp/err"; then
	echo "install-test: a tampered archive was installed" >&2; exit 1
fi
grep -q 'SHA-256 .*nothing installed' "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
[ ! -e "$tmp/c/hookshim" ]
echo "install-test: install.sh from file:// (curl) and 127.0.0.1 (wget); a tampered archive refused"
