#!/bin/bash
# PostToolUse (Edit|Write|MultiEdit): remind the model to format what it
# just changed (additionalContext).
file=$(jq -r '.tool_input.file_path // .tool_input.path // empty')
[ -z "$file" ] && exit 0
jq -n --arg f "$file" '{hookSpecificOutput: {hookEventName: "PostToolUse", additionalContext: ("Run the formatter on " + $f + " before committing.")}}'
