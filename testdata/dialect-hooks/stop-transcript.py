#!/usr/bin/env python3
"""Stop: read the transcript, find the last assistant message, and keep
going while it still says TODO. Honors stop_hook_active."""
import json
import os
import sys

data = json.load(sys.stdin)
if data.get("stop_hook_active"):
    sys.exit(0)

last = data.get("last_assistant_message") or ""
path = os.path.expanduser(data.get("transcript_path") or "")
if not last and path and os.path.exists(path):
    with open(path) as f:
        for line in f:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("type") != "assistant":
                continue
            content = entry.get("message", {}).get("content", [])
            texts = [c.get("text", "") for c in content if isinstance(c, dict) and c.get("type") == "text"]
            if texts:
                last = "\n".join(texts)

if not last:
    print("no assistant message found; letting it stop", file=sys.stderr)
    sys.exit(0)
if "TODO" in last:
    print(json.dumps({"decision": "block", "reason": "Your last message still lists TODOs: finish them."}))
