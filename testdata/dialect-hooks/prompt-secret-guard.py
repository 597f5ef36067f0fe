#!/usr/bin/env python3
# UserPromptSubmit: a prompt that pastes a credential is blocked before the
# model sees it (top-level decision "block").
import json, re, sys

payload = json.load(sys.stdin)
prompt = payload.get("prompt", "")
patterns = [r"AKIA[0-9A-Z]{16}", r"ghp_[A-Za-z0-9]{36}", r"sk-[A-Za-z0-9]{32,}", r"(?i)password\s*[:=]"]
for p in patterns:
    if re.search(p, prompt):
        print(json.dumps({"decision": "block", "reason": "Your prompt seems to contain a secret; remove it and try again."}))
        sys.exit(0)
sys.exit(0)
