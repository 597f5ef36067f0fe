#!/usr/bin/env node
// Gemini CLI BeforeAgent: add the project's conventions to every prompt.
let raw = '';
process.stdin.on('data', (c) => (raw += c));
process.stdin.on('end', () => {
  const input = JSON.parse(raw || '{}');
  const dir = process.env.GEMINI_PROJECT_DIR || input.cwd || '?';
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'BeforeAgent',
      additionalContext: `Conventions for ${dir}: tabs, no new dependencies.`,
    },
  }));
});
