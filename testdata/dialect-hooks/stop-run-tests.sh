#!/usr/bin/env bash
# Stop: do not let the agent finish before the tests were run once. The
# loop guard is stop_hook_active: when Claude is already continuing
# because of this hook, let it stop.
input=$(cat)
active=$(echo "$input" | jq -r '.stop_hook_active // false')
if [[ "$active" == "true" ]]; then
  exit 0
fi
jq -n '{decision: "block", reason: "Run the test suite (make test) and fix failures before finishing."}'
