#!/bin/bash
# Stop: append the event, stamped, to a JSONL log beside the project.
# In the style of mgreenly/ikigai .agents/hooks/stop.sh.
set -e

LOG_DIR="./logs"
CURRENT_LOG="$LOG_DIR/current.log"

INPUT=$(cat)
mkdir -p "$LOG_DIR"
echo "$INPUT" | jq -c '. + {event: "stop", ts: "'"$(date -Iseconds)"'"}' >> "$CURRENT_LOG"
exit 0
