#!/usr/bin/env bash
# Cursor sessionStart: set the session's variables through the answer's
# env object, and give the model a line of context.
input=$(cat)
root=$(jq -r '.workspace_roots[0] // .cwd // empty' <<<"$input")
jq -n -c --arg r "$root" '{env: {PROJECT_ROOT: $r, LOG_LEVEL: "debug"}, additional_context: ("Workspace: " + $r)}'
