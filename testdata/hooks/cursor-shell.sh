#!/bin/bash
# Cursor beforeShellExecution hook: asks before anything that pushes,
# denies deleting from the root, allows the rest.
input=$(cat)
command=$(echo "$input" | jq -r '.command // empty')

if [[ "$command" == *"rm -rf /"* ]]; then
  cat <<JSON
{"permission": "deny", "user_message": "Blocked: $command", "agent_message": "This command deletes from the root and was blocked by a hook. Do not retry it."}
JSON
elif [[ "$command" == "git push"* ]]; then
  echo '{"permission": "ask", "user_message": "Push to the remote?", "agent_message": "Pushing needs the user'"'"'s approval."}'
else
  echo '{"permission": "allow"}'
fi
exit 0
