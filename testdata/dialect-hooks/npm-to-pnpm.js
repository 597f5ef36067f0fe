#!/usr/bin/env node
// PreToolUse (Bash): this repository uses pnpm. Rewrite npm commands
// instead of refusing them (updatedInput), and let them run.
let raw = '';
process.stdin.on('data', (c) => (raw += c));
process.stdin.on('end', () => {
  const input = JSON.parse(raw || '{}');
  const cmd = (input.tool_input && input.tool_input.command) || '';
  const m = cmd.match(/^npm (test|install|run\b.*)$/);
  if (!m) process.exit(0);
  const rewritten = 'pnpm ' + m[1];
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: `rewritten to ${rewritten}`,
      updatedInput: { ...input.tool_input, command: rewritten },
    },
  }));
});
