#!/bin/sh
# make e2e: hookshim inside the real clients pinned in e2e/versions.json.
#
# Builds hookshim from the tree (unless HOOKSHIM_BIN names one), runs the
# scenario matrix of e2e/ (every client, installed from npm into .e2e/ once)
# and the OpenCode bridge checks of e2e/opencode. Every client talks to a
# mock model on 127.0.0.1 only and every run is bounded in time.
#
#   e2e/run.sh [go test flags...]
#   HOOKSHIM_E2E_CLIENTS=claude,codex   run only these clients (opencode included)
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
	HOOKSHIM_BIN="$root/.e2e/bin/hookshim"
fi
export HOOKSHIM_BIN HOOKSHIM_E2E=1

wants() {
	case ",${HOOKSHIM_E2E_CLIENTS:-$1}," in *",$1,"*) return 0 ;; esac
	return 1
}

rc=0
(cd e2e && go test -count=1 -timeout 40m -parallel "${E2E_PARALLEL:-4}" "$@") || rc=1

# install NAME prints the pinned package's executable, installed once.
install() {
	go run ./e2e/cmd/e2ehelper install e2e/versions.json .e2e "$1" 2>".e2e/$1-install.log" && return 0
	cat ".e2e/$1-install.log" >&2
	return 1
}

# cannot NAME: a client that cannot be installed skips loudly, or fails with CI=true.
cannot() {
	if [ "${CI:-}" = true ]; then
		echo "e2e: $1: cannot install it" >&2
		rc=1
	else
		printf '\n!!! e2e: %s SKIPPED: cannot install it (see above)\n\n' "$1" >&2
	fi
}

# The further checks of e2e/opencode and e2e/kimi, on the same pinned versions.
if wants opencode && [ -d e2e/opencode ]; then
	if oc=$(install opencode); then
		HOOKSHIM_E2E_OPENCODE="$oc" go test -count=1 -timeout 20m "$@" ./e2e/opencode || rc=1
	else
		cannot opencode
	fi
fi
if wants kimi && [ -d e2e/kimi ]; then
	if kimi=$(install kimi) && node=$(install node22); then
		HOOKSHIM_E2E_KIMI=$(readlink -f "$kimi") HOOKSHIM_E2E_NODE="$node" go test -count=1 -timeout 20m "$@" ./e2e/kimi || rc=1
	else
		cannot kimi
	fi
fi

echo "e2e: done in $(($(date +%s) - start))s"
exit $rc
