package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/require"
)

func TestParseMixedFormats(t *testing.T) {
	f, err := Parse("/p/.openhook.json", []byte(`{
  "openhook": "0.1",
  "spec": "hooks/0.1",
  "hooks": [
    {"command": "otel-hooks hook", "events": ["session.end"], "async": true},
    {"command": "audit", "events": ["*"]},
    {"command": "write-watch", "events": ["file.write"]},
    {"name": "guard", "event": "before_tool_execute", "matcher": ["shell", {"mcp": {"server": "github"}}],
     "handler": {"type": "command", "command": "./guard.sh", "timeout": 5, "env": {"B": "2", "A": "1"}, "cwd": "sub"},
     "blocking": true, "degradation": {"input_rewrite": "warn"}},
    {"event": "tool:pre", "matcher": {"pattern": "^file_(read|write)$"}, "handler": {"type": "command", "command": "x"}},
    {"event": "before_model", "handler": {"type": "agent", "command": ""}}
  ]
}`))
	require.NoError(t, err)
	require.Len(t, f.Hooks, 5, "the agent handler is not run by hookshim")
	require.Len(t, f.Warnings, 1)
	require.Contains(t, f.Warnings[0], "agent handlers are not run by hookshim")

	otel := f.Hooks[0]
	require.True(t, otel.Async)
	require.True(t, otel.Listens(event.SessionEnd))
	require.False(t, otel.Listens(event.SessionStart))
	require.Equal(t, DefaultTimeout, otel.Timeout)

	all := f.Hooks[1]
	for _, n := range event.Names {
		require.True(t, all.Listens(n), "* listens to %s", n)
	}

	fw := f.Hooks[2]
	require.True(t, fw.Matches(&event.Event{Name: event.AfterToolExecute, Tool: &event.Tool{Name: "file_edit"}}))
	require.False(t, fw.Matches(&event.Event{Name: event.AfterToolExecute, Tool: &event.Tool{Name: "shell"}}))

	g := f.Hooks[3]
	require.Equal(t, "guard", g.Name)
	require.Equal(t, 5*time.Second, g.Timeout)
	require.Equal(t, []string{"A=1", "B=2"}, g.Env)
	require.Equal(t, "/p/sub", g.Dir)
	require.True(t, g.Blocking)
	require.Equal(t, "warn", g.Degradation["input_rewrite"])
	require.True(t, g.Matches(&event.Event{Name: event.BeforeToolExecute, Tool: &event.Tool{Name: "shell", Native: "Bash"}}))
	require.True(t, g.Matches(&event.Event{Name: event.BeforeToolExecute, Tool: &event.Tool{Name: "mcp__github__x", MCP: &event.MCP{Server: "github", Tool: "x"}}}))
	require.False(t, g.Matches(&event.Event{Name: event.BeforeToolExecute, Tool: &event.Tool{Name: "file_read", Native: "Read"}}))
	require.False(t, g.Matches(&event.Event{Name: event.AfterToolExecute, Tool: &event.Tool{Name: "shell"}}))

	amp := f.Hooks[4]
	require.True(t, amp.Matches(&event.Event{Name: event.BeforeToolExecute, Tool: &event.Tool{Name: "file_read", Native: "Read"}}))
	require.False(t, amp.Matches(&event.Event{Name: event.BeforeToolExecute, Tool: &event.Tool{Name: "file_edit", Native: "Edit"}}))
}

func TestParseErrorsNamePosition(t *testing.T) {
	for doc, want := range map[string]string{
		"{\"openhook\":\"0.1\",\n \"hooks\": [ {\"command\": 1} ]}":                                                                                                     `x.json:2:25: "command" must be a string`,
		"{\"openhook\":\"0.1\",\n \"hooks\": [ {\"command\": \"c\", \"events\": [\"tool.begin\"]} ]}":                                                                   `x.json:2:40: unknown event "tool.begin"`,
		"{\"spec\":\"hooks/0.1\",\n \"hooks\": [ {\"event\": \"before_tool_execute\", \"handler\": {\"type\": \"command\", \"command\": \"c\", \"timeout\": \"5\"}} ]}": `x.json:2:104: "timeout" must be a number of seconds`,
		"{\"spec\":\"hooks/0.1\", \"hooks\": [ {\"event\": \"before_tool_execute\", \"matcher\": {\"pattern\": \"(\"}, \"handler\": {\"command\": \"c\"}} ]}":           `pattern is not an RE2 regular expression`,
		"{\"hooks\": []}":        `missing "openhook" or "spec"`,
		"{\"openhook\":\"0.1\"}": `missing "hooks" array`,
		"{\"openhook\":\"0.1\", \"hooks\": [ {\"command\": \"c\", \"event\": \"x\"} ]}": `mixes the two formats`,
		"{\"openhook\":\"0.1\", \"hook\": []}":                                          `missing "hooks" array ("hook" is not a field: did you mean "hooks"?)`,
		"{\"openhook\":\"0.1\",\n\n  \"hooks\": [,]}":                                   `x.json:3:13: not valid JSON here`,
		"[]": `must be a JSON object`,
		"{\"spec\":\"hooks/0.1\",\n \"hooks\": []}": `x.json:2:11: "hooks" is empty`,
		"{\"spec\":\"hooks/0.1\", \"hooks\": [{\"event\": \"before_tol_execute\", \"handler\": {\"command\": \"c\"}}]}": `unknown event "before_tol_execute" (did you mean "before_tool_execute"?)`,
	} {
		_, err := Parse("x.json", []byte(doc))
		require.ErrorContainsf(t, err, want, "doc %s", doc)
	}
}

func TestDiscoverOrder(t *testing.T) {
	home := t.TempDir()
	proj := t.TempDir()
	sub := filepath.Join(proj, "a", "b")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	write := func(p, s string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
	}
	write(filepath.Join(home, ".config", "hookshim", "openhook.json"), `{"openhook":"0.1","hooks":[{"command":"user"}]}`)
	write(filepath.Join(proj, ".openhook.json"), `{"openhook":"0.1","hooks":[{"command":"project"}]}`)
	env := map[string]string{"HOME": home}
	getenv := func(k string) string { return env[k] }

	found, err := Discover(Sources{Getenv: getenv, StartDirs: []string{sub}})
	require.NoError(t, err)
	require.Len(t, found, 2)
	require.Equal(t, "user", found[0].Hooks[0].Command)
	require.False(t, found[0].Discovered, "the user's own config needs no trust")
	require.Equal(t, "project", found[1].Hooks[0].Command)
	require.True(t, found[1].Discovered)

	write(filepath.Join(proj, "env.json"), `{"openhook":"0.1","hooks":[{"command":"env"}]}`)
	env["HOOKSHIM_CONFIG"] = filepath.Join(proj, "env.json")
	found, err = Discover(Sources{Getenv: getenv, StartDirs: []string{sub}})
	require.NoError(t, err)
	require.Len(t, found, 1)
	require.Equal(t, "env", found[0].Hooks[0].Command)

	found, err = Discover(Sources{Flag: filepath.Join(proj, ".openhook.json"), Getenv: getenv, StartDirs: []string{sub}})
	require.NoError(t, err)
	require.Len(t, found, 1)
	require.Equal(t, "project", found[0].Hooks[0].Command)
	require.False(t, found[0].Discovered, "--config is trusted: the user named it")
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("0123456789abcdef", 1000)
	p := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(p, []byte(big), 0o644))
	b, err := ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, big, string(b))

	require.NoError(t, os.WriteFile(p, nil, 0o644))
	b, err = ReadFile(p)
	require.NoError(t, err)
	require.Empty(t, b)

	_, err = ReadFile(filepath.Join(dir, "missing"))
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.ErrorContains(t, err, "open "+filepath.Join(dir, "missing"))

	_, err = ReadFile(dir)
	require.Error(t, err, "a directory is not a file")
}

// "dialect" is read in both formats and kept for the pipeline to act on.
func TestDialectField(t *testing.T) {
	f, err := Parse("x/.openhook.json", []byte(`{"openhook":"0.1","hooks":[
		{"command":"a.sh","events":["tool.start"],"dialect":"claude-code"},
		{"event":"before_tool_execute","handler":{"type":"command","command":"b.sh","dialect":"gemini-cli"}},
		{"event":"before_tool_execute","handler":{"command":"c.sh"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range f.Hooks {
		got = append(got, h.Type+"/"+h.Dialect)
	}
	if strings.Join(got, " ") != "command/claude-code command/gemini-cli command/" {
		t.Fatalf("got %q", got)
	}
}

// TestUnknownFieldsWarn: the Hook Interchange Format asks that unknown
// fields be ignored; hookshim ignores them with a warning that names the
// field meant, and keeps the hook. Metadata fields ("_comment") pass in
// silence.
func TestUnknownFieldsWarn(t *testing.T) {
	for doc, want := range map[string]string{
		`{"_comment": "x", "spec": "hooks/0.1", "hooks": [{"_note": 1, "event": "before_tool_execute", "handler": {"_x": 1, "command": "c"}}]}`:            ``,
		`{"spec": "hooks/0.1", "specs": 1, "hooks": [{"event": "before_tool_execute", "handler": {"command": "c"}}]}`:                                      `x.json:1:23: unknown field "specs" is ignored (did you mean "spec"?)`,
		`{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "matchr": "shell", "handler": {"command": "c"}}]}`:                               `x.json:1:66: unknown field "matchr" in hook is ignored (did you mean "matcher"?)`,
		`{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "handler": {"command": "c", "timout": 3}}]}`:                                     `unknown field "timout" in handler is ignored (did you mean "timeout"?)`,
		`{"openhook": "0.1", "hooks": [{"command": "c", "event": ["tool.start"]}]}`:                                                                        `mixes the two formats`,
		`{"openhook": "0.1", "hooks": [{"command": "c", "evnts": ["tool.start"]}]}`:                                                                        `unknown field "evnts" in OpenHook entry is ignored (did you mean "events"?)`,
		`{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "matcher": "shel", "handler": {"command": "c"}}]}`:                               `x.json:1:77: matcher "shel" is no canonical tool name and matches only a tool of that native name (did you mean "shell"?)`,
		`{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "matcher": {"mcp": {"server": "g", "tol": "x"}}, "handler": {"command": "c"}}]}`: `unknown field "tol" in mcp matcher is ignored (did you mean "tool"?)`,
		`{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "use": "hookshim/pipe-to-shell", "width": {}}]}`:                                 `unknown field "width" in hook is ignored (did you mean "with"?)`,
	} {
		f, err := Parse("x.json", []byte(doc))
		if want == "mixes the two formats" {
			require.ErrorContains(t, err, want)
			continue
		}
		require.NoError(t, err, doc)
		require.Len(t, f.Hooks, 1, doc)
		if want == "" {
			require.Empty(t, f.Warnings, doc)
			continue
		}
		require.Len(t, f.Warnings, 1, doc)
		require.Contains(t, f.Warnings[0], want)
	}
}

// Windsurf's write_code both creates and edits files: file_write and
// file_edit matchers both see it (the provider names it file_edit, also
// file_write).
func TestMatcherAlso(t *testing.T) {
	f, err := Parse("x.json", []byte(`{"spec": "hooks/0.1", "hooks": [
		{"event": "before_tool_execute", "matcher": "file_write", "handler": {"command": "c"}},
		{"event": "windsurf_worktree_setup", "handler": {"command": "c"}},
		{"event": "worktree_setup", "handler": {"command": "c"}}]}`))
	require.NoError(t, err)
	write := &event.Tool{Name: event.ToolFileEdit, Native: "write_code", Also: []string{event.ToolFileWrite}}
	require.True(t, f.Hooks[0].Matches(&event.Event{Name: event.BeforeToolExecute, Tool: write}))
	require.False(t, f.Hooks[0].Matches(&event.Event{Name: event.BeforeToolExecute, Tool: &event.Tool{Name: event.ToolFileEdit, Native: "Edit"}}))
	require.True(t, f.Hooks[1].Listens(event.WorktreeSetup))
	require.True(t, f.Hooks[2].Listens(event.WorktreeSetup))
}

func TestStarterParses(t *testing.T) {
	for _, tools := range [][]string{nil, {"claude-code", "gemini-cli"}} {
		f, err := Parse("x.json", Starter(tools))
		require.NoError(t, err)
		require.Empty(t, f.Warnings)
		require.Len(t, f.Hooks, StarterPolicies)
	}
}
