#!/usr/bin/env bash
# Gemini CLI BeforeTool/AfterTool: log the event and tool, answer {}.
# In the style of k2wanko/gemini-cli-sdk examples/hooks/hooks/log-tool.sh.
LOGFILE="./hook.log"
INPUT=$(cat)
EVENT=$(echo "$INPUT" | jq -r '.hook_event_name')
TOOL=$(echo "$INPUT" | jq -r '.tool_name // "N/A"')
echo "[Hook] $EVENT - tool=$TOOL" >> "$LOGFILE"
echo '{}'
