package config

import (
	"strings"
)

// StarterPolicies is how many built-in policies Starter's config uses
// (TestStarterParses holds it to the text).
const StarterPolicies = 5

// Starter is the .openhook.json `hookshim init` writes: the built-in
// policies most projects want, each with a comment on what it does and
// how to change it, and the tools found (names only: the config is the
// same for every tool). It parses as it is, without a warning.
func Starter(tools []string) []byte {
	found := "no tool's hook config was found yet"
	if len(tools) > 0 {
		found = "tools found here: " + strings.Join(tools, ", ")
	}
	return []byte(`{
  "$schema": "https://raw.githubusercontent.com/hookshim/hookshim/main/schema/openhook.schema.json",
  "spec": "hooks/0.1",
  // One config for every AI coding tool hookshim is registered in
  // (` + found + `).
  // Each entry below is a built-in policy: 'hookshim policies NAME' shows
  // what it catches and misses, and its parameters ("with").
  // Your own handlers go beside them: docs/config.md.
  "hooks": [
    // rm -rf, dd, mkfs and the like outside the project: denied.
    {"use": "hookshim/destructive-shell"},
    // reading or writing .env files, keys and credentials: denied.
    {"use": "hookshim/secret-files"},
    // curl … | sh and other downloads run unread: denied.
    {"use": "hookshim/pipe-to-shell"},
    // a prompt that carries a secret (an API key, a private key): refused.
    {"use": "hookshim/prompt-secrets"},
    // the agent switching these off: hookshim allow or uninstall,
    // HOOKSHIM_DISABLE, edits to the tools' hook settings: denied.
    {"use": "hookshim/hook-tampering"}
  ]
}
`)
}
