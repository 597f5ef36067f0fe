#!/bin/bash
# Claude Code PreToolUse hook (matcher "Read|Edit|Write"): keep the agent
# away from secrets. Blocks with exit 2; Claude shows stderr to the model.
file_path=$(jq -r '.tool_input.file_path // .tool_input.notebook_path // empty')
[ -z "$file_path" ] && exit 0

case "$file_path" in
  *.env|*/.env|*.env.*|*/secrets/*|*secrets.y*ml|*.pem|*id_rsa*)
    echo "Blocked: $file_path looks like a secret; ask the user to edit it." >&2
    exit 2
    ;;
esac
exit 0
