package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCall is pipeline.Call without the command line around it: a
// call that matches no handler, a call in a folder without a config, and a
// duplicate answered from the call it duplicates (its key, its claim, the
// published answers read back; no process is started).
func BenchmarkCall(b *testing.B) {
	cfg := `{"spec": "hooks/0.1", "hooks": [
  {"name": "prompts", "event": "before_prompt", "handler": {"type": "command", "command": "./policy.sh"}},
  {"name": "guard", "event": "before_tool_execute", "matcher": "shell", "handler": {"type": "command", "command": "./policy.sh"}}
]}`
	getenv, project := env(b, cfg)
	policy := "#!/bin/sh\necho '{\"decision\":\"deny\",\"reason\":\"no\"}'\n"
	if err := os.WriteFile(filepath.Join(project, "policy.sh"), []byte(policy), 0o755); err != nil {
		b.Fatal(err)
	}
	bare := b.TempDir()
	opts := Options{Provider: "claude-code"}
	for _, c := range []struct {
		name string
		raw  []byte
	}{
		{"no-match", []byte(`{"session_id":"s1","transcript_path":"/h/.claude/projects/p/s1.jsonl","cwd":"` + project +
			`","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/etc/hosts"},"tool_use_id":"toolu_01"}`)},
		{"no-config", preToolUse(bare, "ls")},
		{"duplicate", preToolUse(project, "ls")},
	} {
		if c.name == "duplicate" {
			if _, rec := Call(c.raw, nil, getenv, opts); rec.Call == "" {
				b.Fatal("the first call ran no handler")
			}
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				// (A duplicate that comes after its claim's window runs the
				// handler again, and its own duplicates follow.)
				ans, rec := Call(c.raw, nil, getenv, opts)
				if ans.Exit != 0 || len(rec.Problems) > 0 {
					b.Fatalf("%+v %+v", ans, rec)
				}
			}
		})
	}
}
