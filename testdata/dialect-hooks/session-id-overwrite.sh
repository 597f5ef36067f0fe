#!/usr/bin/env bash
# SessionStart: write the session id into the env file, replacing what is
# there (>), for skills that read it later.
# In the style of leeovery/claude-technical-workflows hooks/workflows/session-env.sh.
set -eo pipefail

session_id=$(jq -r '.session_id // empty' < /dev/stdin)

if [ -n "$session_id" ] && [ -n "$CLAUDE_ENV_FILE" ]; then
  echo "export CLAUDE_SESSION_ID=${session_id}" > "$CLAUDE_ENV_FILE"
fi

exit 0
