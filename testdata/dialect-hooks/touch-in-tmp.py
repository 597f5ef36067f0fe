#!/usr/bin/env python3
# PreToolUse (Bash): scratch files go to /tmp. A bare "touch NAME" is
# rewritten to create the file there (updatedInput), other commands pass.
import json, shlex, sys

data = json.load(sys.stdin)
ti = data.get("tool_input") or {}
cmd = ti.get("command", "")
try:
    words = shlex.split(cmd)
except ValueError:
    sys.exit(0)
if len(words) == 2 and words[0] == "touch" and "/" not in words[1]:
    new = dict(ti)
    new["command"] = "touch /tmp/" + shlex.quote(words[1])
    json.dump({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                      "permissionDecision": "allow",
                                      "updatedInput": new}}, sys.stdout)
