#!/bin/bash
# Jan PreToolUse (write, edit): no .env files; otherwise tell the model how
# many edits an edit made. Jan names the file "path", puts an edit's
# changes in edits[], and reads "decision" and "context" from stdout.
input=$(cat)
path=$(echo "$input" | jq -r '.tool_input.path // empty')
case "$path" in
  */.env|.env|*/.env.*)
    echo '{"decision": "deny", "reason": "secrets stay out of reach"}'
    exit 0 ;;
esac
n=$(echo "$input" | jq '.tool_input.edits // [] | length')
if [ "$n" -gt 0 ]; then
  jq -cn --arg p "$path" --argjson n "$n" '{context: ("\($n) edit(s) to \($p)")}'
fi
