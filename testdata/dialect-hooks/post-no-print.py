#!/usr/bin/env python3
# PostToolUse (Write|Edit): Python files must not keep debugging print()
# calls. decision "block" feeds the reason back to the model.
import json, sys

d = json.load(sys.stdin)
ti = d.get("tool_input", {})
path = ti.get("file_path", "")
text = ti.get("content") or ti.get("new_string") or ""
for e in ti.get("edits") or []:
    text += e.get("new_string", "")
if path.endswith(".py") and "print(" in text:
    print(json.dumps({"decision": "block", "reason": f"{path}: remove the print() calls you added"}))
