#!/usr/bin/env bash
# Cursor beforeShellExecution: refuse git reset --hard, allow the rest.
# In the style of gullitmiranda/.cursor hooks/block-git-reset-hard.sh.
set -euo pipefail
payload=$(cat)
cmd=$(jq -r '.command // ""' <<<"$payload")
if grep -Eq 'git[[:space:]]+reset[[:space:]].*--hard' <<<"$cmd"; then
  jq -n --arg c "$cmd" '{permission: "deny", user_message: "git reset --hard is blocked: it discards work.", agent_message: ("Blocked: " + $c + ". Use git stash or a new branch.")}'
  exit 0
fi
echo '{"permission": "allow"}'
