#!/usr/bin/env node
// The policy as people write it today without hookshim: a Claude Code
// PreToolUse hook in Node.js that denies "rm -rf /". It speaks Claude
// Code's dialect only; another tool needs another script.
'use strict';
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const cmd = (payload.tool_input && payload.tool_input.command) || '';
  if (cmd.includes('rm -rf /')) {
    process.stdout.write(JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'rm -rf / is not allowed',
      },
    }) + '\n');
  }
});
