package importer

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

func TestToolsWithoutCommandHooks(t *testing.T) {
	for _, id := range []string{"opencode", "kilo", "docker-agent", "goose", "hermes"} {
		var nh *NoHooksError
		assert.True(t, errors.As(Check(provider.Lookup(id)), &nh), id)
	}
	for _, id := range []string{"claude-code", "gemini-cli", "cline", "kimi-code", "mistral-vibe"} {
		assert.NoError(t, Check(provider.Lookup(id)), id)
	}
}

func TestScopeTheToolHasNot(t *testing.T) {
	env := machine(t, &txtar.Archive{})
	_, err := Make(Options{Env: env, From: provider.Lookup("kimi-code"), Scope: provider.ScopeProject, Config: ConfigPath(env, provider.ScopeProject)})
	var se *ScopeError
	require.True(t, errors.As(err, &se), "%v", err)
	assert.Equal(t, provider.ScopeUser, se.Other)
}

func TestUnreadableToolConfig(t *testing.T) {
	env := machine(t, txtar.Parse([]byte("-- project/.claude/settings.json --\n{\"hooks\": {\n")))
	_, err := Make(Options{Env: env, From: provider.Claude, Scope: provider.ScopeProject, Config: ConfigPath(env, provider.ScopeProject)})
	var ue *UnreadableError
	require.True(t, errors.As(err, &ue), "%v", err)
	assert.Equal(t, ".claude/settings.json", ue.Path)
}

// A config hookshim cannot read is never added to.
func TestBrokenConfigIsLeftAlone(t *testing.T) {
	env := machine(t, txtar.Parse([]byte(`-- project/.openhook.json --
{"spec": "hooks/0.1", "hooks": [{"event": "no_such_event", "handler": {"command": "x"}}]}
-- project/.claude/settings.json --
{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]}}
`)))
	cfg := ConfigPath(env, provider.ScopeProject)
	_, err := Make(Options{Env: env, From: provider.Claude, Scope: provider.ScopeProject, Config: cfg})
	var ce *ConfigError
	require.True(t, errors.As(err, &ce), "%v", err)
	var pe *config.Error
	assert.True(t, errors.As(err, &pe), "the config's own error, with its position: %v", err)
}

// An entry written by hand with the same dialect, command and event is
// the hook already imported.
func TestEntryWrittenByHandCounts(t *testing.T) {
	env := machine(t, txtar.Parse([]byte(`-- project/.openhook.json --
{"spec": "hooks/0.1", "hooks": [{"event": "agent_stop", "handler": {"command": "./stop.sh", "dialect": "claude-code"}}]}
-- project/.claude/settings.json --
{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]}}
`)))
	pl, err := Make(Options{Env: env, From: provider.Claude, Scope: provider.ScopeProject, Config: ConfigPath(env, provider.ScopeProject)})
	require.NoError(t, err)
	assert.Equal(t, 1, pl.Already)
	assert.Zero(t, pl.Added)
	assert.Equal(t, string(pl.Old), string(pl.New))
}

// Nothing found, nothing written: no config is created.
func TestNothingToImport(t *testing.T) {
	env := machine(t, &txtar.Archive{})
	cfg := ConfigPath(env, provider.ScopeProject)
	pl, err := Make(Options{Env: env, From: provider.Gemini, Scope: provider.ScopeProject, Config: cfg})
	require.NoError(t, err)
	assert.Empty(t, pl.Files)
	assert.Contains(t, pl.Looked, ".gemini/settings.json")
	assert.Nil(t, pl.New)
	_, err = Apply(env, pl)
	require.NoError(t, err)
	_, err = os.Stat(cfg)
	assert.True(t, os.IsNotExist(err))
}

// The config written is the scope's: the project root, or the user's
// config that hookshim reads.
func TestConfigPath(t *testing.T) {
	env := machine(t, &txtar.Archive{})
	assert.Equal(t, filepath.Join(env.Project, ".openhook.json"), ConfigPath(env, provider.ScopeProject))
	assert.Equal(t, config.UserPath(env.Getenv), ConfigPath(env, provider.ScopeUser))
}

func TestToolMatcher(t *testing.T) {
	for _, c := range []struct {
		from, matcher, want string
	}{
		{"claude-code", "Bash", `"shell"`},
		{"claude-code", "Bash|PowerShell", `"shell"`},
		{"claude-code", "Edit, Write", `["file_edit", "file_write"]`},
		{"claude-code", "MyTool", `"MyTool"`},
		{"claude-code", "mcp__memory__read", `{"mcp":{"server":"memory","tool":"read"}}`},
		{"gemini-cli", "mcp_memory_read", `{"mcp":{"server":"memory","tool":"read"}}`},
		{"claude-code", "mcp__memory__read|Bash", `[{"mcp":{"server":"memory","tool":"read"}}, "shell"]`},
		// A regular expression: canonical names only where it matches
		// every native name behind them, and the expression itself.
		{"claude-code", "(Bash|PowerShell)", `["shell", {"pattern": "(Bash|PowerShell)"}]`},
		{"claude-code", "Bash.*", `{"pattern": "Bash.*"}`},
		{"claude-code", "Notebook.*", `{"pattern": "Notebook.*"}`},
		{"gemini-cli", "run_shell.*", `["shell", {"pattern": "run_shell.*"}]`},
		// Copilot CLI anchors its expressions.
		{"copilot-cli", "bash|power.*", `{"pattern": "^(?:bash|power.*)$"}`},
		// Mistral Vibe: globs and re:, case-insensitive.
		{"mistral-vibe", "bash", `"shell"`},
		{"mistral-vibe", "re:b.sh", `["shell", {"pattern": "(?i)^(?:b.sh)$"}]`},
		{"mistral-vibe", "GREP*", `["search", {"pattern": "(?i)^GREP.*$"}]`},
	} {
		got, err := toolMatcher(provider.Lookup(c.from), c.matcher)
		require.NoError(t, err, c.matcher)
		assert.Equal(t, c.want, got, "%s %s", c.from, c.matcher)
	}
	// JavaScript's look-ahead is not RE2: the entry is not imported.
	_, err := toolMatcher(provider.Claude, "(?!Bash).*")
	assert.ErrorContains(t, err, "not a regular expression hookshim can read")
}

func TestGlobRegexp(t *testing.T) {
	assert.Equal(t, `(?i)^read_.*$`, globRegexp("read_*"))
	assert.Equal(t, `(?i)^a\.b.$`, globRegexp("a.b?"))
	assert.Equal(t, `(?i)^(?:x|y)$`, globRegexp("re:x|y"))
}

// Every tool event of every tool import reads has a matcher that is the
// tool's kind of tool, or none: normalizing an empty payload names it.
func TestImpliedTools(t *testing.T) {
	want := map[string]string{
		"cursor/beforeShellExecution": `"shell"`,
		"cursor/beforeReadFile":       `"file_read"`,
		"cursor/afterFileEdit":        `"file_edit"`,
		"cursor/beforeMCPExecution":   `{"pattern": "^mcp__"}`,
		"cursor/preToolUse":           ``,
		"windsurf/pre_run_command":    `"shell"`,
		"windsurf/post_read_code":     `"file_read"`,
		"windsurf/pre_mcp_tool_use":   `{"pattern": "^mcp__"}`,
		"claude-code/PreToolUse":      ``,
		"gemini-cli/BeforeTool":       ``,
	}
	for _, p := range provider.All {
		if Check(p) != nil {
			continue
		}
		for i := range p.Events {
			spec := &p.Events[i]
			got := impliedTool(p, spec)
			if w, ok := want[p.ID+"/"+spec.Native]; ok {
				assert.Equal(t, w, got, "%s %s", p.ID, spec.Native)
			}
			if !spec.Canonical.IsTool() {
				assert.Empty(t, got, "%s %s", p.ID, spec.Native)
			}
		}
	}
}

// Shapes a tool would refuse are read without a panic: what is not an
// entry is passed over or reported, never imported as something else.
func TestOddShapes(t *testing.T) {
	for _, doc := range []string{
		`{"hooks": []}`,
		`{"hooks": "none"}`,
		`{"hooks": {"PreToolUse": "x"}}`,
		`{"hooks": {"PreToolUse": [1, "x", null, []]}}`,
		`{"hooks": {"PreToolUse": [{"hooks": [1, {"command": 2}, {"type": "command"}]}]}}`,
		`{"hooks": {"PreToolUse": [{"matcher": 5, "hooks": [{"command": "./a.sh", "timeout": -3, "env": {"A": 1}}]}]}}`,
		`[]`,
		`"text"`,
	} {
		env := machine(t, txtar.Parse([]byte("-- project/.claude/settings.json --\n"+doc+"\n")))
		pl, err := Make(Options{Env: env, From: provider.Claude, Scope: provider.ScopeProject, Config: ConfigPath(env, provider.ScopeProject)})
		require.NoError(t, err, doc)
		if pl.New != nil {
			_, err := config.Parse("x.json", pl.New)
			require.NoError(t, err, doc)
		}
	}
}

// A hooks value that is not the tool's format is reported, entry by
// entry where it can be, never passed over: the Hook Interchange vectors'
// Gemini CLI file is a flat list the tool itself does not read.
func TestUnreadableShapesReported(t *testing.T) {
	for doc, want := range map[string]string{
		`{"hooks": [{"trigger": "BeforeTool", "command": "./a.sh"}]}`: `.gemini/settings.json: hooks: not imported: "hooks" is not the object of events Gemini CLI reads`,
		`{"hooks": {"BeforeTool": "./a.sh"}}`:                         `.gemini/settings.json: BeforeTool: not imported: its value is not a list of hooks`,
		`{"hooks": {"BeforeTool": ["./a.sh"]}}`:                       `.gemini/settings.json: BeforeTool: not imported: an entry is not an object`,
	} {
		env := machine(t, txtar.Parse([]byte("-- project/.gemini/settings.json --\n"+doc+"\n")))
		pl, err := Make(Options{Env: env, From: provider.Gemini, Scope: provider.ScopeProject, Config: ConfigPath(env, provider.ScopeProject)})
		require.NoError(t, err, doc)
		assert.Equal(t, 1, pl.Skipped, doc)
		require.Len(t, pl.Losses, 1, doc)
		assert.Contains(t, pl.Losses[0], want, doc)
	}
}

// A config changed between the plan and the write is left as it is now.
func TestChangedMeanwhile(t *testing.T) {
	env := machine(t, txtar.Parse([]byte(`-- project/.openhook.json --
{"spec": "hooks/0.1", "hooks": []}
-- project/.claude/settings.json --
{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]}}
`)))
	cfg := ConfigPath(env, provider.ScopeProject)
	pl, err := Make(Options{Env: env, From: provider.Claude, Scope: provider.ScopeProject, Config: cfg})
	require.NoError(t, err)
	meanwhile := `{"spec": "hooks/0.1", "hooks": [], "description": "edited"}`
	require.NoError(t, os.WriteFile(cfg, []byte(meanwhile), 0o644))
	_, err = Apply(env, pl)
	var ce *install.ChangedError
	require.ErrorAs(t, err, &ce)
	b, _ := os.ReadFile(cfg)
	assert.Equal(t, meanwhile, string(b))
}

// A command hook of any tool import reads becomes a handler in a dialect
// that tool has, or is skipped, saying why: never a handler that can only
// fail on every call.
func TestCommandHooksGetADialectOrASkip(t *testing.T) {
	for _, p := range Tools() {
		t.Run(p.ID, func(t *testing.T) {
			var f *provider.Format
			for _, tg := range p.Install.Targets {
				f = tg.Format
				break
			}
			require.NotNil(t, f)
			var native0 string
			for _, s := range p.Events {
				if s.Canonical != "" {
					native0 = s.Native
					break
				}
			}
			require.NotEmpty(t, native0)
			keys := f.CommandKeys
			if len(keys) == 0 {
				keys = []string{"command"}
			}
			doc := `{"type": "command"}`
			if f.EventKey == "type" {
				doc = `{}`
			}
			doc, err := sjson.Set(doc, keys[0], "./guard.sh")
			require.NoError(t, err)
			n := native{file: "hooks.json", event: native0, entry: gjson.Parse(doc)}
			e, skip, own := translate(p, f, n)
			require.False(t, own)
			dialect := gjson.Get(e.json, "handler.dialect")
			if p.Dialect == nil {
				assert.Contains(t, skip, "could only fail")
				assert.False(t, dialect.Exists(), "a dialect line for a tool without one: %s", e.json)
				return
			}
			require.Empty(t, skip)
			assert.Equal(t, p.ID, dialect.Str, e.json)
		})
	}
}
