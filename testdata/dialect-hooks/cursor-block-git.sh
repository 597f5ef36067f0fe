#!/bin/bash
# Cursor beforeShellExecution: raw git is refused (use the GitHub CLI),
# gh asks first, everything else runs; each decision is logged.
# In the style of hamzafer/cursor-hooks hooks/block-git.sh.
input=$(cat)
command=$(echo "$input" | jq -r '.command // empty')
log="./hooks.log"
echo "$(date -Iseconds) $command" >> "$log"
if [[ "$command" =~ (^|[[:space:];&|])git[[:space:]] ]] || [[ "$command" == "git" ]]; then
  cat <<JSON
{"continue": true, "permission": "deny", "user_message": "Git command blocked. Use the GitHub CLI (gh) instead.", "agent_message": "The git command '$command' was blocked by a hook. Use gh."}
JSON
elif [[ "$command" =~ ^gh[[:space:]] ]]; then
  cat <<JSON
{"continue": true, "permission": "ask", "user_message": "GitHub CLI command requires approval: $command", "agent_message": "The command '$command' needs the user's approval."}
JSON
else
  echo '{"continue": true, "permission": "allow"}'
fi
