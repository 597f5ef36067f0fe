package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// What each tool's reader demands of the entries install writes.

// TestEveryEntryIsRecognised: install must find again every entry it
// writes, or a reinstall would add a second copy.
func TestEveryEntryIsRecognised(t *testing.T) {
	for _, p := range installable() {
		events := defaultEvents(t, p)
		for _, ev := range events {
			cmd := Command(goldenBin, p, ev)
			c, ok := ours(cmd, p)
			require.True(t, ok, "%s %s: %q is not recognised", p.ID, ev, cmd)
			require.Equal(t, goldenBin, c.Bin)
			if p.Install.EventFlag {
				require.Equal(t, ev, c.Event, "%s: the payload lacks the event, the command must name it", p.ID)
			}
		}
		// Another tool's entries are not this one's.
		for _, q := range installable() {
			if q == p || p.Install.SharedCommand != nil {
				continue
			}
			_, ok := ours(Command(goldenBin, q, ""), p)
			require.False(t, ok, "%s takes %s's entries for its own", p.ID, q.ID)
		}
	}
}

// TestTimeoutsMatchTheRuntime: the runtime clips handler deadlines to the
// provider's Timeout, which must be what install writes.
func TestTimeoutsMatchTheRuntime(t *testing.T) {
	for _, p := range installable() {
		if p.Install.Timeout > 0 {
			require.Equal(t, p.Install.Timeout, p.Timeout, "%s: Provider.Timeout differs from the timeout install writes", p.ID)
		}
		for _, e := range p.Install.EventTimeouts {
			require.NotNil(t, p.Spec(e.Event), "%s: EventTimeouts names %s, which is not an event", p.ID, e.Event)
		}
		for _, e := range p.Install.Skip {
			require.NotNil(t, p.Spec(e.Event), "%s: Skip names %s, which is not an event", p.ID, e.Event)
		}
		for _, e := range p.Install.SharedCommand {
			require.NotNil(t, p.Spec(e.Event), "%s: SharedCommand names %s, which is not an event", p.ID, e.Event)
		}
	}
}

// TestOnlyKnownEventKeys: Cursor rejects a whole hooks.json for one event
// key it does not know; no tool gets an event its table does not list.
func TestOnlyKnownEventKeys(t *testing.T) {
	for _, p := range installable() {
		for _, tg := range p.Install.Targets {
			if tg.Format.Layout != provider.LayoutGroups && tg.Format.Layout != provider.LayoutLists {
				continue
			}
			env := testEnv(t)
			run(t, env, p, tg, defaultEvents(t, p))
			path, _ := env.Path(tg)
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			gjson.GetBytes(b, "hooks").ForEach(func(k, _ gjson.Result) bool {
				s := p.Spec(k.String())
				require.NotNil(t, s, "%s: wrote event key %q", p.ID, k.String())
				require.NotEmpty(t, s.Canonical, "%s: wrote %q, which hookshim has no canonical event for", p.ID, k.String())
				return true
			})
		}
	}
}

func TestCursorFileShape(t *testing.T) {
	env := testEnv(t)
	tg := *Target(provider.Cursor, provider.ScopeProject)
	run(t, env, provider.Cursor, tg, defaultEvents(t, provider.Cursor))
	b, err := os.ReadFile(filepath.Join(env.Project, ".cursor", "hooks.json"))
	require.NoError(t, err)
	require.Equal(t, int64(1), gjson.GetBytes(b, "version").Int())
	require.Equal(t, int64(30), gjson.GetBytes(b, "hooks.preToolUse.0.timeout").Int(), "seconds")
	// The events Cursor also runs from .claude/settings.json carry
	// Claude's command string, so Cursor runs hookshim once.
	require.Equal(t, Command(goldenBin, provider.Claude, "PreToolUse"), gjson.GetBytes(b, "hooks.preToolUse.0.command").Str)
	require.Equal(t, goldenBin+" run --provider cursor", gjson.GetBytes(b, "hooks.beforeShellExecution.0.command").Str)
}

func TestGeminiTimeoutIsMilliseconds(t *testing.T) {
	env := testEnv(t)
	tg := *Target(provider.Gemini, provider.ScopeProject)
	run(t, env, provider.Gemini, tg, []string{"BeforeTool"})
	b, err := os.ReadFile(filepath.Join(env.Project, ".gemini", "settings.json"))
	require.NoError(t, err)
	require.Equal(t, int64(30000), gjson.GetBytes(b, "hooks.BeforeTool.0.hooks.0.timeout").Int())
	require.Equal(t, "hookshim", gjson.GetBytes(b, "hooks.BeforeTool.0.hooks.0.name").Str)
}

// TestKimiFourKeys: Kimi Code's schema is strict; one more key and the
// whole config.toml fails to load.
func TestKimiFourKeys(t *testing.T) {
	p := provider.Lookup("kimi-code")
	if p == nil || p.Install == nil {
		t.Skip("no kimi-code provider")
	}
	env := testEnv(t)
	tg := *Target(p, provider.ScopeUser)
	run(t, env, p, tg, defaultEvents(t, p))
	path, _ := env.Path(tg)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var cfg struct {
		Hooks []map[string]any `toml:"hooks"`
	}
	require.NoError(t, toml.Unmarshal(b, &cfg))
	require.NotEmpty(t, cfg.Hooks)
	for _, h := range cfg.Hooks {
		var keys []string
		for k := range h {
			keys = append(keys, k)
		}
		require.ElementsMatch(t, []string{"event", "matcher", "command", "timeout"}, keys)
		require.Equal(t, int64(30), h["timeout"])
		require.Equal(t, "", h["matcher"])
	}
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "config.toml holds keys: owner only")
}

// TestConcurrentChangeIsKept: a file that changes between plan and write
// (another hookshim, the user's editor) is not overwritten with the stale
// plan: the change is planned again on what the file holds now.
func TestConcurrentChangeIsKept(t *testing.T) {
	env := testEnv(t)
	tg := *Target(provider.Claude, provider.ScopeProject)
	changes, _, err := Plan(env, provider.Claude, tg, []string{"Stop"})
	require.NoError(t, err)
	path := filepath.Join(env.Project, ".claude", "settings.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(`{"model": "x"}`), 0o600))
	_, err = Apply(env, changes[0])
	require.NoError(t, err)
	b, _ := os.ReadFile(path)
	require.Equal(t, "x", gjson.GetBytes(b, "model").String(), "the change made meanwhile is lost")
	require.Contains(t, gjson.GetBytes(b, "hooks.Stop.0.hooks.0.command").String(), "hookshim run --provider claude-code")
}

// TestModeAndBackup: an edited file keeps its mode; the previous version is
// kept outside the tool's folder.
func TestModeAndBackup(t *testing.T) {
	env := testEnv(t)
	tg := *Target(provider.Claude, provider.ScopeProject)
	path := filepath.Join(env.Project, ".claude", "settings.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte("{\n  \"model\": \"x\"\n}\n"), 0o640))
	changes, _, err := Plan(env, provider.Claude, tg, []string{"Stop"})
	require.NoError(t, err)
	backup, err := Apply(env, changes[0])
	require.NoError(t, err)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o640), fi.Mode().Perm())
	b, err := os.ReadFile(backup)
	require.NoError(t, err)
	require.Equal(t, "{\n  \"model\": \"x\"\n}\n", string(b))
	require.True(t, strings.HasPrefix(backup, env.BackupDir()), backup)
	entries, _ := os.ReadDir(filepath.Dir(path))
	require.Len(t, entries, 1, "no temporary or backup file next to the config")
}

func TestCommandQuoting(t *testing.T) {
	bin := "/Users/Jane Doe/bin/hookshim"
	cmd := Command(bin, provider.Claude, "PreToolUse")
	require.Equal(t, `'/Users/Jane Doe/bin/hookshim' run --provider claude-code`, cmd)
	c, ok := ours(cmd, provider.Claude)
	require.True(t, ok)
	require.Equal(t, bin, c.Bin)

	for cmd, want := range map[string]bool{
		"hookshim run --provider claude-code":                  true,
		"/x/hookshim run --provider=claude":                    true,
		`& 'C:\Tools\hookshim.exe' run --provider claude-code`: true,
		"hookshim run --config x.json":                         false,
		"hookshim simulate --provider claude-code":             false,
		"/x/not-hookshim run --provider claude-code":           false,
		"hookshim run --provider gemini-cli":                   false,
		"echo hookshim run --provider claude-code":             false,
	} {
		_, ok := ours(cmd, provider.Claude)
		require.Equal(t, want, ok, cmd)
	}
}

func TestDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	new := "a\nb\nc\nX\nd\ne\nf\ng\nh\ni\nj\nk"
	require.Equal(t, `--- a/f
+++ b/f
@@ -1,6 +1,7 @@
 a
 b
 c
+X
 d
 e
 f
@@ -8,3 +9,4 @@
 h
 i
 j
+k
\ No newline at end of file
`, Diff("f", []byte(old), true, []byte(new), true))
	require.Empty(t, Diff("f", []byte(old), true, []byte(old), true))
	require.Equal(t, "--- a/f\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n", Diff("f", []byte("x\n"), true, nil, false))
}
