#!/usr/bin/env bash
# Claude Code PreToolUse hook (matcher "Bash"): refuse shell commands that
# delete from the root or force-push, with the reason in Claude's JSON.
set -euo pipefail

input=$(cat)
tool=$(jq -r '.tool_name // empty' <<<"$input")
[[ "$tool" == "Bash" ]] || exit 0
cmd=$(jq -r '.tool_input.command // empty' <<<"$input")

reason=""
if [[ "$cmd" =~ rm[[:space:]]+-[a-zA-Z]*[rR][a-zA-Z]*f?[a-zA-Z]*[[:space:]]+/([[:space:]]|$) ]]; then
  reason="Refusing to delete from the filesystem root: $cmd"
elif [[ "$cmd" =~ git[[:space:]]+push.*(--force|-f([[:space:]]|$)) ]]; then
  reason="Force-push is not allowed from the agent: $cmd"
fi

if [[ -n "$reason" ]]; then
  jq -n --arg reason "$reason" '{
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: $reason
    }
  }'
fi
exit 0
