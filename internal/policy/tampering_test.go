package policy

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/shellcmd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTamperingWrites: a file tool that writes a switch's assignment is
// denied wherever it writes it, but in documentation.
func TestTamperingWrites(t *testing.T) {
	p, err := Compile("hookshim/hook-tampering", nil)
	require.NoError(t, err)
	for _, tt := range []struct {
		tool, path, input string
		want              bool
	}{
		{event.ToolFileWrite, ".envrc", `{"content": "export PATH=$PWD/bin:$PATH\nexport HOOKSHIM_DISABLE=1\n"}`, true},
		{event.ToolFileEdit, ".vscode/settings.json", `{"old_string": "{", "new_string": "{\n  \"terminal.integrated.env.linux\": {\"HOOKSHIM_SKIP\": \"destructive-shell\"},"}`, true},
		{event.ToolFileWrite, "Dockerfile", `{"content": "FROM node:20\nENV HOOKSHIM_TRUST_ALL=1\n"}`, true},
		{event.ToolFileWrite, "config.fish", `{"content": "set -gx HOOKSHIM_DISABLE 1"}`, true},
		{event.ToolFileWrite, "run.py", `{"content": "os.environ[\"HOOKSHIM\"] = \"0\""}`, true},
		{event.ToolFileWrite, "docs/safety.md", `{"content": "| HOOKSHIM_DISABLE=1 | switches hookshim off |"}`, false},
		{event.ToolFileWrite, "main.go", `{"content": "if getenv(\"HOOKSHIM_DISABLE\") == \"1\" {"}`, false},
		{event.ToolFileWrite, ".envrc", `{"content": "export MY_HOOKSHIM_DISABLE=1\nexport HOOKSHIM_DISABLED_AT=x"}`, false},
		{event.ToolFileWrite, "/tmp/nohooks.json", `{"content": "{\"disableAllHooks\": true}"}`, true},
		{event.ToolFileEdit, "ci/codex.toml", `{"old_string": "[features]", "new_string": "[features]\ncodex_hooks = false"}`, true},
		{event.ToolFileWrite, "docs/hooks.md", `{"content": "set \"disableAllHooks\": true to switch them off"}`, false},
		{event.ToolFileWrite, "/tmp/hooks.json", `{"content": "{\"disableAllHooks\": false}"}`, false},
	} {
		ev := eventFor(Example{Tool: tt.tool, Text: tt.path}, nil)
		ev.Tool.Input = []byte(tt.input)
		out := p.Eval(ev)
		if tt.want {
			assert.Equal(t, deny, out.Decision, "%s %s", tt.path, tt.input)
			assert.Contains(t, out.Reason, "sets ")
		} else {
			assert.True(t, out.Empty(), "%s %s: %s", tt.path, tt.input, out.Reason)
		}
	}
}

// TestGuardsFollowTheEnvironment: the folders variables move (the tools'
// own, XDG's) and the program itself are guarded; what is above a
// folder a variable names is not this policy's.
func TestGuardsFollowTheEnvironment(t *testing.T) {
	env := map[string]string{"HOME": "/var/lib/u", "CLAUDE_CONFIG_DIR": "/srv/claude", "XDG_STATE_HOME": "/srv/state",
		"XDG_CONFIG_HOME": "/srv/config", "CODEX_HOME": "/srv/codex"}
	g := makeGuards(func(k string) string { return env[k] }, "/opt/bin/hookshim")
	for p, want := range map[string]string{
		"/srv/claude/settings.json":                "where Claude Code reads its hooks",
		"/srv/codex/hooks.json":                    "where Codex reads its hooks",
		"/srv/state/hookshim/trust/x.json":         "hookshim's allowances and state",
		"/srv/config/hookshim/openhook.json":       "hookshim's own config",
		"/srv/config/opencode/plugins/hookshim.js": "where OpenCode reads its hooks",
		"/var/lib/u/.gemini/settings.json":         "where Gemini CLI reads its hooks",
		"/opt/bin/hookshim":                        "the hookshim program",
		"/opt/bin/hookshim-remote":                 "the hookshim program",
		"/srv/other/settings.json":                 "",
		"/opt/bin/jq":                              "",
	} {
		assert.Equal(t, want, g.find(p, false), p)
	}
	assert.Equal(t, "where Claude Code reads its hooks", g.find("/srv/claude", true))
	assert.Equal(t, "hookshim's allowances and state", g.find("/srv/state", true))
	for _, p := range []string{"/srv", "/var/lib", "/var", "/opt/bin", "/", "/var/lib/u"} {
		assert.Empty(t, g.find(p, true), p)
	}
}

// TestSwitchesAreHookshims: every variable hookshim reads that changes
// what it runs is a switch the policy guards; the others are named here.
func TestSwitchesAreHookshims(t *testing.T) {
	notSwitches := []string{"HOOKSHIM_LOG", "HOOKSHIM_LOG_MAX"}
	read := regexp.MustCompile(`[Gg]etenv\("(HOOKSHIM[A-Z_]*)"\)`)
	found := map[string]bool{}
	for _, root := range []string{"../../internal", "../../cmd"} {
		require.NoError(t, filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			b, err := os.ReadFile(path)
			for _, m := range read.FindAllStringSubmatch(string(b), -1) {
				found[m[1]] = true
			}
			return err
		}))
	}
	require.NotEmpty(t, found)
	for name := range found {
		assert.True(t, slices.Contains(switches, name) || slices.Contains(notSwitches, name), "%s is read by hookshim: a switch of hook-tampering, or one of notSwitches", name)
	}
}

// TestHookshimRun reads the ways a line runs hookshim.
func TestHookshimRun(t *testing.T) {
	for line, want := range map[string]string{
		"hookshim allow": "allow",
		"/usr/local/bin/hookshim.exe install --all": "install",
		"npx --yes -p hookshim hookshim allow":      "allow",
		"npx hookshim@1.2.3 uninstall":              "uninstall",
		"npm exec hookshim -- deny":                 "deny",
		"bunx @hookshim/hookshim allow":             "allow",
		"go run ./cmd/hookshim allow":               "allow",
		"hookshim simulate --all":                   "",
		"hookshim allow -h":                         "",
		"npx eslint allow":                          "",
		"go run ./cmd/other allow":                  "",
	} {
		cmds, err := shellcmd.Commands(line)
		require.NoError(t, err)
		assert.Equal(t, want, hookshimRun(cmds[0]), line)
	}
}

// BenchmarkGuards is what the first call of a process that evaluates
// hook-tampering pays once: the guarded files of every tool.
func BenchmarkGuards(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		makeGuards(os.Getenv, "/usr/local/bin/hookshim")
	}
}

// BenchmarkTamperingWrite checks a file tool's path against them.
func BenchmarkTamperingWrite(b *testing.B) {
	p, err := Compile("hookshim/hook-tampering", nil)
	if err != nil {
		b.Fatal(err)
	}
	ev := eventFor(Example{Tool: event.ToolFileWrite, Text: "src/internal/policy/tampering.go"}, nil)
	ev.Tool.Input = []byte(`{"content": "package policy\n"}`)
	b.ReportAllocs()
	for b.Loop() {
		p.Eval(ev)
	}
}

// TestEveryGuardIsFound: a path for each guarded file, its globs filled
// in, is found, past the filter of names.
func TestEveryGuardIsFound(t *testing.T) {
	env := map[string]string{"HOME": "/var/lib/u", "CODEX_HOME": "/srv/codex", "XDG_CONFIG_HOME": "/srv/config", "APPDATA": "/c/AppData"}
	g := makeGuards(func(k string) string { return env[k] }, "/opt/bin/hookshim")
	require.NotNil(t, g.names)
	require.Greater(t, len(g.list), 50)
	for _, gd := range g.list {
		rel := strings.NewReplacer("*", "x", "?", "x").Replace(strings.Join(gd.rel, "/"))
		var p string
		switch {
		case gd.anywhere:
			p = "/home/u/project/" + rel
		case gd.inHome:
			p = "~/" + rel
		default:
			p = strings.Join(gd.root, "/") + "/" + rel
		}
		assert.NotEmpty(t, g.find(p, false), p) // another tool reading the same file may be named
	}
}

// TestTamperingThroughLinks: a link to a guarded file is that file, for
// a file tool and a shell command; making one is denied too.
func TestTamperingThroughLinks(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".claude"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte("{}"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(".claude", "settings.json"), filepath.Join(dir, "notes.json")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "off.json"), []byte(`{"disableAllHooks": true}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "on.json"), []byte(`{"model": "opus"}`), 0o644))
	p, err := Compile("hookshim/hook-tampering", nil)
	require.NoError(t, err)
	for _, tt := range []struct {
		tool, text string
		want       bool
	}{
		{event.ToolFileWrite, "notes.json", true},
		{event.ToolFileEdit, filepath.Join(dir, "notes.json"), true},
		{event.ToolShell, "echo '{}' > notes.json", true},
		{event.ToolShell, "ln -s .claude/settings.json s.json", true},
		{event.ToolShell, "ln -sf ../project/.claude/settings.json -t /tmp", true},
		{event.ToolShell, "git checkout HEAD~1 -- .claude/settings.json", true},
		{event.ToolShell, "git restore --source=main .claude/settings.json", true},
		{event.ToolShell, "git rm --cached .claude/settings.local.json", true},
		{event.ToolShell, "ln -s ../shared/config.json config.json", false},
		{event.ToolShell, "git checkout -b fix/x", false},
		{event.ToolShell, "git restore src/main.go", false},
		{event.ToolFileWrite, "other.json", false},
		{event.ToolShell, "rm .claude/*", true},
		{event.ToolShell, "rm -r .cla*", true},
		{event.ToolShell, "mv .claude/settings.* /tmp/", true},
		{event.ToolShell, "rm -rf *", false},
		{event.ToolShell, "rm -f *.json", false},
		{event.ToolShell, "claude --settings off.json -p 'tidy up'", true},
		{event.ToolShell, "claude --settings on.json -p 'tidy up'", false},
	} {
		out := p.Eval(eventFor(Example{Tool: tt.tool, Text: tt.text, Cwd: dir}, nil))
		if tt.want {
			assert.Equal(t, deny, out.Decision, "%s", tt.text)
		} else {
			assert.True(t, out.Empty(), "%s: %s", tt.text, out.Reason)
		}
	}
}

// TestHomeParts: the home folders known by their form, for the guards
// and for secret-files' folders alike.
func TestHomeParts(t *testing.T) {
	for p, want := range map[string]int{
		"~/.claude": 1, "/home/u/.claude": 3, "/users/me": 3, "/var/home/u/.ssh": 4, "/root/.ssh": 2,
		"c:/users/u/.claude": 3, "/home/": 0, "/opt/u": 0, "relative/x": 0,
	} {
		assert.Equal(t, want, homeParts(strings.Split(p, "/")), p)
	}
	assert.True(t, isHome("/var/home/u"))
	assert.False(t, isHome("/home/u/src"))
}
