#!/bin/bash
# Claude Code SessionStart / UserPromptSubmit hook: tells the model which
# project this is and where the conversation is kept. Plain stdout: Claude
# adds it as context on these two events.
input=$(cat)
transcript=$(printf '%s' "$input" | jq -r '.transcript_path // empty')
project="${CLAUDE_PROJECT_DIR:-}"

if [ -z "$project" ]; then
  echo "CLAUDE_PROJECT_DIR is not set" >&2
  exit 1
fi
echo "Project: $(basename "$project") ($project)"
if [ -n "$transcript" ]; then
  echo "Transcript: $transcript"
else
  echo "Transcript: none"
fi
