package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/bench/benchdata"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/normalize"
)

// mixed is a config with every kind of matcher, in both entry formats.
const mixed = `{
  "spec": "hooks/0.1",
  "hooks": [
    {"name": "shell", "event": "before_tool_execute", "matcher": "shell", "handler": {"type": "command", "command": "policy shell"}},
    {"name": "files", "event": "before_tool_execute", "matcher": ["file_write", "file_edit"], "handler": {"type": "command", "command": "policy files"}},
    {"name": "pattern", "event": "before_tool_execute", "matcher": {"pattern": "^(Bash|run_shell_command|shell)$"}, "handler": {"type": "command", "command": "policy pattern"}},
    {"name": "mcp", "event": "before_tool_execute", "matcher": {"mcp": {"server": "github"}}, "handler": {"type": "command", "command": "policy mcp"}},
    {"name": "post", "event": "after_tool_execute", "handler": {"type": "command", "command": "policy post", "timeout": 5}},
    {"name": "prompt", "event": "before_prompt", "handler": {"type": "command", "command": "policy prompt"}},
    {"name": "session", "event": "session_start", "handler": {"type": "command", "command": "policy session", "env": {"A": "1"}}},
    {"command": "policy openhook", "events": ["tool.start", "tool.end", "file.write"]}
  ]
}`

// BenchmarkParse parses configs of 1, 8 and 64 handlers, and the mixed one.
func BenchmarkParse(b *testing.B) {
	docs := map[string][]byte{"mixed": []byte(mixed)}
	for _, n := range []int{1, 8, 64} {
		docs[fmt.Sprintf("hooks-%d", n)] = benchdata.Config(n, "/usr/local/bin/policy --deny 'rm -rf /'")
	}
	for _, name := range []string{"hooks-1", "hooks-8", "hooks-64", "mixed"} {
		doc := docs[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if _, err := config.Parse("/project/.openhook.json", doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDiscover finds and loads the project config from a directory
// four levels below it, as every call does.
func BenchmarkDiscover(b *testing.B) {
	root := b.TempDir()
	deep := filepath.Join(root, "a", "b", "c", "d")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(mixed), 0o644); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(root, "no-user-config")}
	src := config.Sources{Getenv: func(k string) string { return env[k] }, StartDirs: []string{deep}}
	b.ReportAllocs()
	for b.Loop() {
		found, err := config.Discover(src)
		if err != nil || len(found) != 1 {
			b.Fatalf("found %d configs: %v", len(found), err)
		}
	}
}

// BenchmarkMatch selects the handlers of the mixed config for each sample
// event.
func BenchmarkMatch(b *testing.B) {
	f, err := config.Parse("/project/.openhook.json", []byte(mixed))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range benchdata.Small() {
		ev := normalize.Event(c.Provider, c.Spec, c.Payload())
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				for _, h := range f.Hooks {
					if h.Matches(ev) {
						n++
					}
				}
				_ = n
			}
		})
	}
}
