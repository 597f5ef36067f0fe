package cli_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/internal/cli"
	"github.com/hookshim/hookshim/internal/config"
)

// BenchmarkRunPack is `hookshim run` in process on a shell call, with a
// config that matches nothing and with one that uses every built-in
// policy (none of which refuses the call): what the pack adds to a call,
// without the process start.
func BenchmarkRunPack(b *testing.B) {
	root := b.TempDir()
	configs := map[string]string{
		"no-match": `{"spec": "hooks/0.1", "hooks": [{"name": "guard", "event": "before_tool_selection", "handler": {"type": "command", "command": "./policy.sh"}}]}`,
		"pack": `{"spec": "hooks/0.1", "hooks": [
 {"name": "destructive", "event": "before_tool_execute", "use": "hookshim/destructive-shell", "with": {"allow_paths": ["/var/tmp/**"]}},
 {"name": "branches", "use": "hookshim/protected-branches", "with": {"branches": ["main", "release/*"]}},
 {"name": "secrets", "use": "hookshim/secret-files"},
 {"name": "prompt", "use": "hookshim/prompt-secrets"},
 {"name": "pipe", "use": "hookshim/pipe-to-shell"},
 {"name": "outside", "use": "hookshim/outside-project", "with": {"allow": ["/tmp/**"]}},
 {"name": "installs", "use": "hookshim/url-installs"}]}`,
	}
	env := map[string]string{
		"HOME":            root,
		"XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_STATE_HOME":  filepath.Join(root, "state"),
		"XDG_RUNTIME_DIR": filepath.Join(root, "run"),
	}
	getenv := func(k string) string { return env[k] }
	for _, name := range []string{"no-match", "pack"} {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, config.FileName), []byte(configs[name]), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "policy.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			b.Fatal(err)
		}
		if code := cli.Main([]string{"allow", filepath.Join(dir, config.FileName)}, nil, io.Discard, io.Discard, getenv); code != 0 {
			b.Fatalf("allow exited %d", code)
		}
		raw := []byte(`{"session_id":"s1","transcript_path":"/h/.claude/projects/p/s1.jsonl","cwd":"` + dir + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd web && npm ci && npm run build -- --mode=production 2>&1 | tee build.log && git add -A && git commit -m \"build: update assets\""},"tool_use_id":"toolu_01"}`)
		b.Run(name, func(b *testing.B) {
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				if code := cli.Main([]string{"run", "--provider", "claude-code"}, bytes.NewReader(raw), &out, io.Discard, getenv); code != 0 || out.Len() != 0 {
					b.Fatalf("exit %d: %s", code, out.String())
				}
			}
		})
	}
}
