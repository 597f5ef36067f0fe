#!/usr/bin/env python3
"""PreToolUse (Write|Edit|MultiEdit): refuse to write anything that looks
like a credential. Reads what is written: content, new_string, edits."""
import json
import re
import sys

SECRET = re.compile(r"(AKIA[0-9A-Z]{16}|-----BEGIN [A-Z ]*PRIVATE KEY-----|xox[bp]-[0-9A-Za-z-]{10,})")

event = json.load(sys.stdin)
ti = event.get("tool_input") or {}
chunks = [ti.get("content", ""), ti.get("new_string", "")]
chunks += [e.get("new_string", "") for e in ti.get("edits", [])]
written = "\n".join(c for c in chunks if c)
if not written:
    sys.exit(0)
m = SECRET.search(written)
if m:
    print(f"Refusing to write a secret ({m.group(0)[:8]}...) to {ti.get('file_path', '?')}", file=sys.stderr)
    sys.exit(2)
