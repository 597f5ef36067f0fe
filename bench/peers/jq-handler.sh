#!/usr/bin/env bash
# The policy as a hookshim command handler written in bash and jq: it reads
# the OpenHook envelope, the same in every tool, and denies "rm -rf /".
set -euo pipefail
cmd=$(jq -r '.data.command // empty')
case "$cmd" in
*"rm -rf /"*)
	printf '%s\n' '{"decision":"deny","reason":"rm -rf / is not allowed"}'
	;;
esac
