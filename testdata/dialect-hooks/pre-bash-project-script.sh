#!/usr/bin/bash
# PreToolUse Bash: pytest always runs; any other command is handed to the
# project's own checker (./pre-bash-hook.sh in the folder the hook runs
# in) and refused when there is none.
# In the style of CookieBox26/dotfiles dot_claude/scripts/pre-bash-hook.sh.
set -euo pipefail

json=$(cat)
command=$(printf '%s' "$json" | jq -r '.tool_input.command // ""')
if echo "$command" | grep -qE '^pytest( |$)'; then
  exit 0
fi
checker="$(pwd)/pre-bash-hook.sh"
if [ -f "$checker" ]; then
  bash "$checker" "$command"
else
  echo "no project checker for: $command" >&2
  exit 2
fi
