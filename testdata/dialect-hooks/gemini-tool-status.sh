#!/usr/bin/env bash
# Gemini CLI AfterTool: classify the call as success or error from the
# text of tool_response (the original counts it in a metric; here it is
# the systemMessage), and always answer JSON.
# In the style of shepard-system/shepard-obs-stack hooks/gemini/after-tool.sh.
set -euo pipefail

input="$(cat)"
tool_name="$(jq -r '.tool_name // .toolName // "unknown"' <<< "$input" 2>/dev/null || echo "unknown")"
cwd="$(jq -r '.cwd // ""' <<< "$input" 2>/dev/null)"
[[ -z "$cwd" ]] && cwd="${GEMINI_CWD:-${GEMINI_PROJECT_DIR:-}}"

tool_status="success"
tool_response="$(jq -r '.tool_response // "" | if type == "string" then . else tostring end' <<< "$input" 2>/dev/null || echo "")"
if echo "$tool_response" | grep -qiE '(^error|"error"|traceback|exit code: [1-9]|command failed|FAILED|panic:)' 2>/dev/null; then
  tool_status="error"
fi
output="$(jq -r '.tool_response.llmContent // empty' <<< "$input" 2>/dev/null | head -c 60 | tr '\n' ' ')"

jq -n -c --arg t "$tool_name" --arg s "$tool_status" --arg o "$output" --arg c "$(basename "$cwd")" \
  '{systemMessage: "\($t) in \($c): \($s) [\($o)]"}'
exit 0
