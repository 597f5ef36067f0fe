#!/bin/bash
# PreToolUse (Edit|Write|Read): nothing outside the project folder.
input=$(cat)
path=$(echo "$input" | jq -r '.tool_input.file_path // empty')
[ -z "$path" ] && exit 0
root="${CLAUDE_PROJECT_DIR:?CLAUDE_PROJECT_DIR not set}"
case "$path" in
  /*) abs="$path" ;;
  *) abs="$(echo "$input" | jq -r '.cwd')/$path" ;;
esac
case "$abs" in
  "$root"/*) exit 0 ;;
esac
echo "$path is outside the project ($root)" >&2
exit 2
