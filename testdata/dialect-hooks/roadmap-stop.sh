#!/bin/bash
# Stop: ask once, before ending, for the roadmap to be brought up to date;
# the stop_hook_active guard lets the second Stop through.
# In the style of saadshahd/moo.md .claude/scripts/roadmap-stop.sh.
INPUT=$(cat)
STOP_ACTIVE=$(echo "$INPUT" | jq -r '.stop_hook_active // "false"')

if [ "$STOP_ACTIVE" = "true" ]; then
  exit 0
fi

jq -n '{
  decision: "block",
  reason: "Before ending: update ROADMAP.md with what this session decided or finished, or say that nothing changed."
}'
