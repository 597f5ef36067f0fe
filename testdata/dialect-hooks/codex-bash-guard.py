#!/usr/bin/env python3
# Codex PreToolUse (Bash): Codex needs a reason on stderr with exit 2.
import json, sys

data = json.load(sys.stdin)
cmd = (data.get("tool_input") or {}).get("command", "")
if isinstance(cmd, list):
    cmd = " ".join(cmd)
if "rm -rf" in cmd or "--force" in cmd:
    sys.stderr.write(f"codex guard: refusing `{cmd}`\n")
    sys.exit(2)
