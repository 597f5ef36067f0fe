# SessionStart: load the project's toolchain into the session.
# (No #! line: Claude Code runs hook commands through sh.)
if [ -n "$CLAUDE_ENV_FILE" ]; then
  echo 'export NODE_ENV=development' >> "$CLAUDE_ENV_FILE"
  echo "export PATH=\"\$PATH:$CLAUDE_PROJECT_DIR/node_modules/.bin\"" >> "$CLAUDE_ENV_FILE"
fi
exit 0
