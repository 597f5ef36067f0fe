#!/bin/bash
# Written for an early Claude Code: PreToolUse answers with the old
# top-level "decision" (approve / block) instead of permissionDecision.
input=$(cat)
tool=$(echo "$input" | jq -r '.tool_name')
cmd=$(echo "$input" | jq -r '.tool_input.command // empty')
case "$cmd" in
  "npm publish"*|*"--force"*)
    echo '{"decision": "block", "reason": "publishing and force pushes need a human"}'
    ;;
  "ls"*|"git status"*)
    echo '{"decision": "approve", "reason": "read-only command"}'
    ;;
  *)
    echo '{}'
    ;;
esac
