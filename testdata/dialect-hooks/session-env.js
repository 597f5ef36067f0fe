#!/usr/bin/env node
// SessionStart: persist the API base for later Bash calls and tell the
// model which environment it is in.
const fs = require('fs');
let raw = '';
process.stdin.on('data', (c) => (raw += c));
process.stdin.on('end', () => {
  const input = JSON.parse(raw || '{}');
  const envFile = process.env.CLAUDE_ENV_FILE;
  if (!envFile) {
    console.error('CLAUDE_ENV_FILE is not set');
    process.exit(1);
  }
  fs.appendFileSync(envFile, 'export API_BASE=http://localhost:8080\n');
  console.log(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'SessionStart',
      additionalContext: `Session ${input.source || 'unknown'}: API_BASE is set for shell commands.`,
    },
  }));
});
