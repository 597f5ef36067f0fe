#!/bin/bash
# SessionStart: put the project's node_modules/.bin first on PATH for the
# session, set NODE_ENV, and tell the model what was set up (plain stdout
# is context on SessionStart).
# In the style of rafaelcalleja/claude-market-place
# skills/hooks-mastery/examples/sessionstart-setup.
input=$(cat)
source=$(echo "$input" | jq -r '.source // "startup"')
project="${CLAUDE_PROJECT_DIR:-$(pwd)}"
if [ -n "${CLAUDE_ENV_FILE:-}" ]; then
  {
    echo "export PATH=\"$project/node_modules/.bin:\$PATH\""
    echo 'export NODE_ENV=development'
    echo 'export PYTHONDONTWRITEBYTECODE=1'
  } >> "$CLAUDE_ENV_FILE"
fi
echo "Session initialized (source: $source) in $(basename "$project")"
exit 0
