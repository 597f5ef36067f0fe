#!/bin/bash
# A plugin's PreToolUse hook: its rules file lives next to it, found
# through CLAUDE_PLUGIN_ROOT.
rules="${CLAUDE_PLUGIN_ROOT:?not run as a plugin}/rules.txt"
cmd=$(jq -r '.tool_input.command // ""')
while read -r word; do
  [ -z "$word" ] && continue
  if [[ "$cmd" == *"$word"* ]]; then
    echo "plugin rule: '$word' is not allowed" >&2
    exit 2
  fi
done < "$rules"
