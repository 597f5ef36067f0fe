#!/bin/sh
# PostToolUse (every tool): keep a record of what ran, say nothing.
# Shell syntax in the registered command is Claude Code's too.
read -r line || true
printf '%s\n' "$line" | jq -c '{tool: .tool_name, session: .session_id}' >/dev/null
echo '{"suppressOutput": true}'
