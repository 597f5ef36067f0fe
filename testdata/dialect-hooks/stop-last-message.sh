#!/usr/bin/env bash
# Stop: read one line of input (with a short timeout), find the
# transcript, and report the assistant's last words (the original sends
# them to a status service; here they are the hook's systemMessage).
# In the style of telepath-computer/thopter-swarm
# runloop-thopters/scripts/claude-hook-stop.sh and scripts/thopter-last-message.mjs.
read -t 1 INPUT || true
TRANSCRIPT=$(echo "$INPUT" | jq -r '.transcript_path // empty')
if [ -n "$TRANSCRIPT" ] && [ -f "$TRANSCRIPT" ]; then
  LAST=$(node "$(dirname "$0")/last-message.mjs" "$TRANSCRIPT" || true)
  if [ -n "$LAST" ]; then
    jq -n --arg m "last: $LAST" '{systemMessage: $m}'
  fi
fi
exit 0
