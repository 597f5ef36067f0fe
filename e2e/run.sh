#!/bin/sh
# make e2e: hookshim inside the real clients pinned in e2e/versions.json.
#
# Builds hookshim from the tree (unless HOOKSHIM_BIN names one) and runs the
# scenario matrix of e2e/ (every client, installed from npm into .e2e/ once).
# Every client talks to a mock model on 127.0.0.1 only and every run is
# bounded in time.
#
#   e2e/run.sh [go test flags...]
#   HOOKSHIM_E2E_CLIENTS=claude,codex   run only these clients
#   E2E_PARALLEL=4                      client runs at a time
#   CI=true                             a client that cannot be installed fails instead of skipping
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"
mkdir -p .e2e
start=$(date +%s)

if [ -z "${HOOKSHIM_BIN:-}" ]; then
	go build -o .e2e/bin/hookshim ./cmd/hookshim || exit 1
	# http and prompt handlers are sent by hookshim-remote, found next to hookshim.
	go build -o .e2e/bin/hookshim-remote ./cmd/hookshim-remote || exit 1
	HOOKSHIM_BIN="$root/.e2e/bin/hookshim"
fi
export HOOKSHIM_BIN HOOKSHIM_E2E=1

rc=0
(cd e2e && go test -count=1 -timeout 40m -parallel "${E2E_PARALLEL:-4}" "$@") || rc=1
echo "e2e: done in $(($(date +%s) - start))s"
exit $rc
