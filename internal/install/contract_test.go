package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/shellquote"
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
	// In every scope and form, the events Cursor also runs from
	// .claude/settings.json carry Claude's command string, so Cursor runs
	// hookshim once.
	for _, tc := range []struct {
		scope            provider.Scope
		projectBin       string
		claude, ownEvent string
	}{
		{provider.ScopeUser, "", goldenBin + " run --provider claude-code", goldenBin + " run --provider cursor"},
		{provider.ScopeProject, "", "hookshim run --provider claude-code", "hookshim run --provider cursor"},
		{provider.ScopeProject, "tools/hookshim", `"$CLAUDE_PROJECT_DIR"/tools/hookshim run --provider claude-code`, `"$CURSOR_PROJECT_DIR"/tools/hookshim run --provider cursor`},
	} {
		env := testEnv(t)
		env.ProjectBin = tc.projectBin
		tg := *Target(provider.Cursor, tc.scope)
		run(t, env, provider.Cursor, tg, defaultEvents(t, provider.Cursor))
		path, _ := env.Path(tg)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, int64(1), gjson.GetBytes(b, "version").Int())
		require.Equal(t, int64(30), gjson.GetBytes(b, "hooks.preToolUse.0.timeout").Int(), "seconds")
		require.Equal(t, tc.claude, gjson.GetBytes(b, "hooks.preToolUse.0.command").Str)
		require.Equal(t, tc.ownEvent, gjson.GetBytes(b, "hooks.beforeShellExecution.0.command").Str)

		ctg := *Target(provider.Claude, tc.scope)
		run(t, env, provider.Claude, ctg, []string{"PreToolUse"})
		cpath, _ := env.Path(ctg)
		cb, err := os.ReadFile(cpath)
		require.NoError(t, err)
		require.Equal(t, tc.claude, gjson.GetBytes(cb, "hooks.PreToolUse.0.hooks.0.command").Str, "the string Cursor dedupes on")
	}
}

// TestProjectEntriesRunEverywhere: a project file is committed, so its
// entries name no path of this machine: hookshim from PATH, or a binary
// inside the project through the tool's project-folder variable. Each is
// recognised again, and a tool without such a variable refuses the
// project binary rather than writing something that cannot run.
func TestProjectEntriesRunEverywhere(t *testing.T) {
	for _, p := range installable() {
		tg := Target(p, provider.ScopeProject)
		if tg == nil {
			continue
		}
		events := defaultEvents(t, p)
		for _, projectBin := range []string{"", "bin/hookshim"} {
			env := testEnv(t)
			env.ProjectBin = projectBin
			made, reg, err := Plan(env, p, *tg, events)
			if projectBin != "" && p.Install.ProjectDir == "" {
				var pe *ProjectBinError
				require.ErrorAs(t, err, &pe, p.ID)
				continue
			}
			require.NoError(t, err, p.ID)
			require.False(t, reg.Current())
			for _, c := range made {
				require.NotContains(t, string(c.New), goldenBin, "%s: a path of this machine in a project file", p.ID)
			}
			run(t, env, p, *tg, events)
			_, reg, err = Plan(env, p, *tg, events)
			require.NoError(t, err)
			require.True(t, reg.Current(), "%s %q: %v", p.ID, projectBin, reg.Problems)
			require.NotEmpty(t, reg.Bins, p.ID)
			for _, b := range reg.Bins {
				if projectBin == "" {
					require.Equal(t, "hookshim", b)
				} else {
					require.True(t, strings.HasSuffix(b, "/bin/hookshim"), b)
				}
			}
			if projectBin != "" {
				require.Contains(t, reg.Bins, unquoteWord(p.Install.ProjectDir)+"/bin/hookshim", p.ID)
			}

			// Whether the binary can be found: PATH, or the project.
			env.Getenv = func(k string) string { return map[string]string{"PATH": filepath.Join(env.Project, "nothing")}[k] }
			require.NotEmpty(t, reg.Missing(env), p.ID)
			bin := filepath.Join(env.Project, "bin", "hookshim")
			require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
			require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
			if projectBin == "" {
				env.Getenv = func(k string) string { return map[string]string{"PATH": filepath.Dir(bin)}[k] }
			}
			require.Empty(t, reg.Missing(env), p.ID)

			// Uninstall finds them all.
			run(t, env, p, *tg, nil)
			_, reg, err = Plan(env, p, *tg, nil)
			require.NoError(t, err)
			require.Empty(t, reg.Events, p.ID)
		}
	}
}

// TestProjectFormsRun: the project-relative command, as a tool's shell
// runs it with the tool's variable set, reaches the binary.
func TestProjectFormsRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh syntax")
	}
	for _, p := range installable() {
		tg := Target(p, provider.ScopeProject)
		if tg == nil || p.Install.ProjectDir == "" {
			continue
		}
		env := testEnv(t)
		env.ProjectBin = "my tools/hookshim"
		bin := filepath.Join(env.Project, "my tools", "hookshim")
		require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
		require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\necho \"ran $*\"\n"), 0o755))
		ev := defaultEvents(t, p)[0]
		cmd, err := env.command(p, *tg, ev)
		require.NoError(t, err)
		// Gemini CLI replaces its variable with the quoted folder itself.
		cmd = strings.ReplaceAll(cmd, "$GEMINI_PROJECT_DIR", shellquote.Word(env.Project))
		sh := exec.Command("sh", "-c", cmd)
		if tg.Format.Layout == provider.LayoutScriptPerEvent {
			// The tool runs the script itself, by its path.
			run(t, env, p, *tg, []string{ev})
			dir, _ := env.Path(*tg)
			sh = exec.Command(filepath.Join(dir, ev))
		}
		// Not the project: the forms must not depend on the folder the
		// tool runs hooks in, but for a tool that documents it as the root.
		sh.Dir = t.TempDir()
		if p.Install.ProjectDir == "." {
			sh.Dir = env.Project
		}
		sh.Env = []string{"PATH=/usr/bin:/bin"}
		for _, q := range provider.All {
			for _, v := range q.ProjectDirEnv {
				sh.Env = append(sh.Env, v+"="+env.Project)
			}
		}
		sh.Env = append(sh.Env, "AMPLIFIER_PROJECT_DIR="+env.Project)
		out, err := sh.CombinedOutput()
		require.NoError(t, err, "%s: %s: %s", p.ID, cmd, out)
		require.Contains(t, string(out), "ran run --provider", p.ID)
	}
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
		"hookshim run --provider claude-code":                           true,
		"/x/hookshim run --provider=claude":                             true,
		`& 'C:\Tools\hookshim.exe' run --provider claude-code`:          true,
		"hookshim run --config x.json":                                  false,
		"hookshim simulate --provider claude-code":                      false,
		"/x/not-hookshim run --provider claude-code":                    false,
		"hookshim run --provider gemini-cli":                            false,
		"echo hookshim run --provider claude-code":                      false,
		`"$CLAUDE_PROJECT_DIR"/bin/hookshim run --provider claude-code`: true,
		`"${0%/*}/../.."/bin/hookshim run --provider claude-code`:       true,
		`"$CLAUDE_PROJECT_DIR"/bin/other run --provider claude-code`:    false,
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

// Backups are kept per config file, the keepBackups newest; another
// file's backups and files that are not backups stay.
func TestBackupsArePruned(t *testing.T) {
	env := testEnv(t)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	env.Now = func() time.Time { return at }
	path := filepath.Join(env.Project, "settings.json")
	other := filepath.Join(env.Project, "other.json")
	_, err := env.backup(other, []byte("other"))
	require.NoError(t, err)
	dir := env.BackupDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600))

	var made []string
	for i := 0; i < keepBackups+5; i++ {
		if i%3 == 0 {
			at = at.Add(time.Second) // some within one second, some not
		}
		b, err := env.backup(path, []byte(strconv.Itoa(i)))
		require.NoError(t, err)
		made = append(made, filepath.Base(b))
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := append([]string{}, made[5:]...)
	require.Len(t, left, keepBackups+2)
	for _, name := range want {
		require.Contains(t, left, name)
	}
	for _, name := range made[:5] {
		require.NotContains(t, left, name, "an old backup is kept")
	}
	require.Contains(t, left, "notes.txt")
	b, err := os.ReadFile(filepath.Join(dir, made[len(made)-1]))
	require.NoError(t, err)
	require.Equal(t, strconv.Itoa(keepBackups+4), string(b), "the newest is the last")
}
