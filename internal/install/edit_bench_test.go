package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
)

// settings50K is a Claude Code settings file of about 50 KB: many
// permissions and hooks of the user's, as a long-used file has.
func settings50K() string {
	var b strings.Builder
	b.WriteString("{\n  \"permissions\": {\n    \"allow\": [\n")
	for i := 0; i < 800; i++ {
		fmt.Fprintf(&b, "      \"Bash(npm run task-%d -- --flag)\",\n", i)
	}
	b.WriteString("      \"Read(./**)\"\n    ]\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "      {\"matcher\": \"Tool%d\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/guard-%d.sh\"}]},\n", i, i)
	}
	b.WriteString("      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/guard.sh\"}]}\n    ]\n  },\n  \"model\": \"opus\"\n}\n")
	return b.String()
}

// BenchmarkPlan50K: planning an install into (and an uninstall from) a
// 50 KB settings file: parsing plus every edit.
func BenchmarkPlan50K(b *testing.B) {
	p := provider.Claude
	tg := *Target(p, provider.ScopeProject)
	root := b.TempDir()
	env := Env{Home: filepath.Join(root, "home"), Project: filepath.Join(root, "proj"), Bin: goldenBin, Getenv: func(string) string { return "" }}
	path, _ := env.Path(tg)
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	text := settings50K()
	if len(text) < 50_000 {
		b.Fatalf("only %d bytes", len(text))
	}
	_ = os.WriteFile(path, []byte(text), 0o644)
	events, _ := Events(p, nil)
	b.Run("install", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := Plan(env, p, tg, events); err != nil {
				b.Fatal(err)
			}
		}
	})
	changes, _, _ := Plan(env, p, tg, events)
	_ = os.WriteFile(path, changes[0].New, 0o644)
	b.Run("uninstall", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := Plan(env, p, tg, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
