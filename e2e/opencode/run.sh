#!/bin/sh
# End-to-end check of hookshim's OpenCode bridge inside the real OpenCode.
#
# Installs the pinned opencode-ai from npm (once, cached under .e2e/), then
# runs the Go test in this folder against it. The model is a mock on
# 127.0.0.1; OpenCode's update check, sharing, model catalog fetch and
# startup npm install are switched off by the test.
#
#   e2e/opencode/run.sh [go test flags...]
#   OPENCODE_VERSION=1.18.33  the version to install (default: the pinned one)
#   HOOKSHIM_BIN              the hookshim to test (default: built from the tree)
#   HOOKSHIM_E2E_RECORD_DIR   copy the recorded bridge payloads there
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=${OPENCODE_VERSION:-1.18.33}
cache="$root/.e2e/opencode/$version"

case "$(uname -s)" in
Linux) os=linux ;;
Darwin) os=darwin ;;
*) echo "e2e/opencode: unsupported system $(uname -s)" >&2; exit 1 ;;
esac
case "$(uname -m)" in
x86_64 | amd64) arch=x64 ;;
aarch64 | arm64) arch=arm64 ;;
*) echo "e2e/opencode: unsupported machine $(uname -m)" >&2; exit 1 ;;
esac

bin="$cache/node_modules/opencode-$os-$arch/bin/opencode"
if [ ! -x "$bin" ]; then
	mkdir -p "$cache"
	echo "e2e/opencode: installing opencode-ai@$version into $cache" >&2
	# The platform binary comes as an optional dependency; the package's own
	# postinstall only links it, so scripts stay off.
	(cd "$cache" && timeout 600 npm install --no-audit --no-fund --ignore-scripts --no-save "opencode-ai@$version" >&2)
fi
if [ ! -x "$bin" ]; then
	echo "e2e/opencode: $bin missing after install" >&2
	exit 1
fi
echo "e2e/opencode: $("$bin" --version 2>/dev/null || echo '?') at $bin" >&2

cd "$root"
HOOKSHIM_E2E_OPENCODE="$bin" exec go test -count=1 ./e2e/opencode "$@"
