#!/bin/bash
# Cursor beforeShellExecution: ask for network commands, deny rm -rf /.
input=$(cat)
cmd=$(echo "$input" | jq -r '.command // empty')
case "$cmd" in
  *"rm -rf /"*)
    echo '{"permission": "deny", "user_message": "Blocked a destructive command", "agent_message": "Do not delete the filesystem root."}' ;;
  curl*|wget*)
    echo '{"permission": "ask", "user_message": "Network access requested"}' ;;
  *)
    echo '{"permission": "allow"}' ;;
esac
