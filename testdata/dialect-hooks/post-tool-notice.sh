#!/usr/bin/env bash
# PostToolUse Write/Edit: pick the tool and file out of the raw JSON with
# grep (no jq), and say so in a systemMessage.
# In the style of boneskull/claude-plugins
# plugins/example-plugin/hooks/scripts/post-tool-use.sh.
set -euo pipefail

input=$(cat)
tool_name=$(echo "$input" | grep -o '"tool_name":"[^"]*"' | cut -d'"' -f4 || true)
file_path=$(echo "$input" | grep -o '"file_path":"[^"]*"' | head -1 | cut -d'"' -f4 || true)

echo "post-tool-notice: $tool_name completed on $file_path" >&2

cat <<JSON
{
  "continue": true,
  "systemMessage": "post-tool-notice processed $tool_name on $file_path"
}
JSON
exit 0
