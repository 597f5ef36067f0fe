#!/bin/sh
# make e2e-bump: move e2e/versions.json to the newest client versions that
# install and run here, run the end-to-end tests on them, re-record the real payloads
# (testdata/payloads/<id>/<Event>-real.json) and their goldens, and report
# what changed in the payloads (.e2e/drift.md).
#
# HOOKSHIM_E2E_CLIENTS=kilo,codex bumps and runs only these clients.
#
# Exits non-zero when npm could not be asked, a client could not be installed
# or run, a client is kept below its newest version (that version does not
# install here, or installs and does not start: both are in the report), or
# the goldens could not be regenerated.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"
mkdir -p .e2e
drift="$root/.e2e/drift.md"
bumped="$root/.e2e/bump.txt"

rc=0
go run ./e2e/cmd/e2ehelper bump -cache .e2e -only "${HOOKSHIM_E2E_CLIENTS:-}" e2e/versions.json >"$bumped" || rc=1
cat "$bumped"
{
	printf '# Payload drift, %s\n\n' "$(date -u +%Y-%m-%d)"
	if grep -q 'NOT AT THE NEWEST\|cannot ask npm' "$bumped"; then
		printf '## Clients not at their newest version\n\n'
		grep 'NOT AT THE NEWEST\|cannot ask npm' "$bumped" | sed 's/^/- /'
		printf '\n'
	fi
} >"$drift"
# HOOKSHIM_E2E_RECORD makes a client that cannot be installed fail the run.
HOOKSHIM_E2E_RECORD=1 HOOKSHIM_E2E_DRIFT="$drift" sh e2e/run.sh "$@" || rc=1
go test -count=1 . -run 'TestPayloadGoldens/.*/.*-real$' -update >/dev/null || rc=1

echo
echo "== versions and fixtures changed:"
git diff --stat -- e2e/versions.json testdata/payloads
echo
echo "== new files (fixtures recorded for the first time, and their goldens):"
new=$(git ls-files --others --exclude-standard -- testdata/payloads)
if [ -n "$new" ]; then echo "$new"; else echo "(none)"; fi
echo
cat "$drift"
echo "The goldens of the re-recorded fixtures were regenerated: read every changed one (git diff testdata/payloads) and every new one before committing."
exit $rc
