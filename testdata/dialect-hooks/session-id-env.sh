#!/usr/bin/env bash
# SessionStart: make the session id a variable of the session's commands.
# Aborts (set -u) where CLAUDE_ENV_FILE is not set.
# In the style of virgil-king/kbtz plugin/scripts/session-env.sh.
set -euo pipefail

jq -r '"export CLAUDE_CODE_SESSION_ID=\(.session_id)"' >> "$CLAUDE_ENV_FILE"
