#!/usr/bin/env bash
# PreToolUse (Bash): refuse recursive deletes of / and of the home folder.
# Claude Code reads exit 2 as "block", with stderr shown to the model.
set -euo pipefail
cmd=$(jq -r '.tool_input.command // ""')
if echo "$cmd" | grep -Eq 'rm[[:space:]]+-[a-zA-Z]*r[a-zA-Z]*f?[[:space:]]+(/|~|\$HOME)([[:space:]]|$)'; then
  echo "Blocked: '$cmd' would delete far more than the project." >&2
  exit 2
fi
exit 0
