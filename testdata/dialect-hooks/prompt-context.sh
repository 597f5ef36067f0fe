#!/bin/bash
# UserPromptSubmit: plain stdout becomes context for the model.
echo "Current time: 2026-01-01T00:00:00Z (fixed for tests)"
echo "Project folder: ${CLAUDE_PROJECT_DIR:-unset}"
