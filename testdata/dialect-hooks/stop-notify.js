#!/usr/bin/env node
// Stop: never blocks; leaves a system message for the user with what the
// session did, from the payload.
let raw = '';
process.stdin.on('data', (c) => (raw += c));
process.stdin.on('end', () => {
  const input = JSON.parse(raw || '{}');
  const id = (input.session_id || 'unknown').slice(0, 8);
  console.log(JSON.stringify({ continue: true, systemMessage: `session ${id} finished (stop_hook_active=${!!input.stop_hook_active})` }));
});
