#!/usr/bin/env bash
# The policy as people write it today without hookshim: a Claude Code
# PreToolUse hook in bash and jq that denies "rm -rf /". It speaks Claude
# Code's dialect only; another tool needs another script.
set -euo pipefail
cmd=$(jq -r '.tool_input.command // empty')
case "$cmd" in
*"rm -rf /"*)
	printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf / is not allowed"}}'
	;;
esac
