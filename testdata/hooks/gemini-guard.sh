#!/usr/bin/env bash
# Gemini CLI hook for BeforeTool (matcher "run_shell_command") and
# BeforeAgent: denies destructive commands, adds a reminder to prompts.
input=$(cat)
event=$(echo "$input" | jq -r '.hook_event_name')

case "$event" in
  BeforeTool)
    [ "$(echo "$input" | jq -r '.tool_name')" = "run_shell_command" ] || exit 0
    cmd=$(echo "$input" | jq -r '.tool_input.command // ""')
    if echo "$cmd" | grep -Eq 'rm -rf /( |$)|git push .*--force'; then
      jq -n --arg c "$cmd" '{decision: "deny", reason: ("Security policy: \($c) is not allowed"), systemMessage: "A destructive command was blocked"}'
      exit 0
    fi
    ;;
  BeforeAgent)
    jq -n '{hookSpecificOutput: {hookEventName: "BeforeAgent", additionalContext: "Answer in English; keep changes small."}}'
    exit 0
    ;;
esac
echo '{}'
