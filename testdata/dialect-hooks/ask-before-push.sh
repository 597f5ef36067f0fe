#!/bin/bash
# PreToolUse (Bash): pushes go through the user.
cmd=$(jq -r '.tool_input.command // ""')
if [[ "$cmd" == git\ push* ]]; then
  cat <<JSON
{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"confirm the push: $cmd"}}
JSON
fi
