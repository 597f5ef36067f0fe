#!/usr/bin/env python3
"""PreToolUse (Edit|Write|MultiEdit): keep the agent's hands off .env files
and lock files, with a JSON permission decision."""
import json
import os
import sys

PROTECTED = (".env", ".env.local", "package-lock.json", "pnpm-lock.yaml")

data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
name = os.path.basename(path)
if name in PROTECTED or "/.git/" in path:
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": f"{name} is protected; ask the user to change it",
        }
    }))
sys.exit(0)
