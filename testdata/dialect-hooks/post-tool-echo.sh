#!/bin/bash
# PostToolUse Read/Grep/Glob: log the payload and print a line (plain
# stdout, which Claude Code shows in its transcript view only).
# In the style of niels-hop/cc-web-playground hooks-testing/test-scripts/post-tool-use.sh.
RESULTS_FILE="./hook-results.log"
INPUT=$(cat)
echo "PostToolUse hook triggered" >> "$RESULTS_FILE"
echo "$INPUT" | jq '.' >> "$RESULTS_FILE" 2>/dev/null || echo "$INPUT" >> "$RESULTS_FILE"
TOOL_NAME=$(echo "$INPUT" | jq -r '.tool_name // "unknown"' 2>/dev/null)
echo "PostToolUse Hook: finished executing tool '$TOOL_NAME'"
exit 0
