#!/bin/sh
# make e2e-bump: move e2e/versions.json to the newest client versions, run
# the end-to-end tests on them, re-record the real payloads
# (testdata/payloads/<id>/<Event>-real.json) and their goldens, and report
# what changed in the payloads (.e2e/drift.md).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"
mkdir -p .e2e
drift="$root/.e2e/drift.md"

go run ./e2e/cmd/e2ehelper bump e2e/versions.json || exit 1
printf '# Payload drift, %s\n\n' "$(date -u +%Y-%m-%d)" >"$drift"
rc=0
HOOKSHIM_E2E_RECORD=1 HOOKSHIM_E2E_DRIFT="$drift" sh e2e/run.sh "$@" || rc=1
go test -count=1 . -run 'TestPayloadGoldens/.*/.*-real$' -update >/dev/null || rc=1

echo
echo "== versions and fixtures changed:"
git diff --stat -- e2e/versions.json testdata/payloads
echo
cat "$drift"
echo "The goldens of the re-recorded fixtures were regenerated: read every changed one (git diff testdata/payloads) before committing."
exit $rc
