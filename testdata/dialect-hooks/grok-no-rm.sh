#!/bin/bash
# Grok Build PreToolUse (run_terminal_command): no recursive deletes. Grok
# sends camelCase keys and reads {"decision": "deny"} from stdout.
input=$(cat)
cmd=$(echo "$input" | jq -r '.toolInput.command // empty')
case "$cmd" in
  *"rm -rf"*|*"rm -fr"*)
    jq -cn --arg c "$cmd" '{decision: "deny", reason: ("no recursive deletes: " + $c)}' ;;
esac
exit 0
