#!/usr/bin/env bash
# Gemini CLI BeforeTool (run_shell_command): no sudo. Gemini reads the
# decision from stdout JSON.
input=$(cat)
cmd=$(echo "$input" | jq -r '.tool_input.command // empty')
if [[ "$cmd" == sudo* || "$cmd" == *"rm -rf /"* ]]; then
  echo '{"decision": "deny", "reason": "privileged or destructive commands are not allowed"}'
  exit 0
fi
echo '{"decision": "allow"}'
