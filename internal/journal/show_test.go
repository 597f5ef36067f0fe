package journal

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Long names are cut to their column, so that every row's last column
// starts where the header's does, as rows printed one at a time by
// --follow must.
func TestTableColumns(t *testing.T) {
	var b bytes.Buffer
	tb := &Table{W: &b}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	require.NoError(t, tb.Print([]*Record{
		{Entry: Entry{Time: at, ID: "0123456789", MS: 1.25, Provider: "claude-code", Version: "2.1.30",
			Native: "PreToolUse", NativeTool: "Bash", Decision: "none", Handlers: []string{"guard"}}},
	}))
	require.NoError(t, tb.Print([]*Record{
		{Entry: Entry{Time: at, ID: "abcdef0123", MS: 12.5, Provider: "vscode-copilot", Version: "1.105.0-insider",
			Native: "UserPromptSubmitted", NativeTool: "mcp__github__create_pull_request", Decision: "deny",
			Problems: []string{"x"}, Handlers: []string{"no-force-push", "no-env-files", "secrets-in-prompts"},
			Runs: []Run{{Name: "no-env-files", Error: "boom"}}}},
	}))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 3, "one header, before the first row only")
	col := utf8.RuneCountInString(lines[0][:strings.Index(lines[0], "DURATION")])
	for _, l := range lines[1:] {
		last := strings.LastIndex(l, "  ") + 2
		assert.Equal(t, col, utf8.RuneCountInString(l[:last]), "%q", l)
	}
	assert.Contains(t, lines[1], "claude-code 2.1.30")
	assert.Contains(t, lines[1], " 01234567 ")
	assert.Contains(t, lines[1], "1.2ms")
	assert.Contains(t, lines[2], "mcp__github__…")
	assert.Contains(t, lines[2], "deny!")
	assert.Contains(t, lines[2], "no-force-push,no-en…")
}

func TestFilter(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e := &Entry{Time: at, Provider: "claude-code", Native: "PreToolUse", Event: "before_tool_execute", Decision: "deny", Handlers: []string{"guard"}}
	for _, c := range []struct {
		f    Filter
		keep bool
	}{
		{Filter{}, true},
		{Filter{Tool: "claude-code", Event: "pretooluse", Decision: "deny", Handler: "guard", Since: at}, true},
		{Filter{Event: "BEFORE_TOOL_EXECUTE"}, true},
		{Filter{Tool: "cursor"}, false},
		{Filter{Event: "Stop"}, false},
		{Filter{Decision: "allow"}, false},
		{Filter{Handler: "other"}, false},
		{Filter{Since: at.Add(time.Second)}, false},
	} {
		assert.Equal(t, c.keep, c.f.Keep(e), "%+v", c.f)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 1, 10, 12, 0, 0, 0, time.Local)
	for in, want := range map[string]time.Time{
		"30m":                  now.Add(-30 * time.Minute),
		"2h":                   now.Add(-2 * time.Hour),
		"7d":                   now.Add(-7 * 24 * time.Hour),
		"2026-01-02":           time.Date(2026, 1, 2, 0, 0, 0, 0, time.Local),
		"2026-01-02 15:04:05":  time.Date(2026, 1, 2, 15, 4, 5, 0, time.Local),
		"2026-01-02T15:04:05Z": time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC),
	} {
		got, err := ParseSince(in, now)
		require.NoError(t, err, in)
		assert.True(t, want.Equal(got), "%s: %v, want %v", in, got, want)
	}
	for _, bad := range []string{"", "-1h", "-2d", "yesterday"} {
		_, err := ParseSince(bad, now)
		assert.Error(t, err, bad)
	}
}

func TestReadPath(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": dir}
	getenv := func(k string) string { return env[k] }
	got, err := ReadPath("other.jsonl", getenv)
	require.NoError(t, err)
	require.Equal(t, "other.jsonl", got, "--file wins")
	got, err = ReadPath("", getenv)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, "hookshim", "calls.jsonl"), got)
	env["HOOKSHIM_LOG"] = "off"
	_, err = ReadPath("", getenv)
	require.EqualError(t, err, "the decision log is off (HOOKSHIM_LOG=off)")
	_, err = ReadPath("", func(string) string { return "" })
	require.EqualError(t, err, "no state folder: neither XDG_STATE_HOME nor HOME is set")
}

func TestShortAndWithVersion(t *testing.T) {
	assert.Equal(t, "01234567", Short("0123456789"))
	assert.Equal(t, "0123", Short("0123"))
	assert.Equal(t, "codex 0.5", WithVersion("codex", "0.5"))
	assert.Equal(t, "codex", WithVersion("codex", ""))
}

func TestExplain(t *testing.T) {
	e := &Entry{ID: "abc", Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), MS: 2.5, Provider: "claude-code", Version: "2.1",
		Detection: &Detection{Provider: "claude-code", Score: 9, Confidence: "certain", Signals: []string{"+5 has x"}},
		Native:    "PreToolUse", Event: "before_tool_execute", NativeTool: "Bash", Tool: "shell", Command: "ls",
		Configs: []Config{{Path: "/p/.openhook.json", Trust: "allowed"}},
		Hooks: []Hook{{Name: "g", Pos: "/p/.openhook.json:2", Events: []string{"before_tool_execute"}, Matched: true},
			{Name: "n", Pos: "/p/.openhook.json:3", Events: []string{"before_prompt"}, Why: "listens to before_prompt"}},
		Runs:     []Run{{Name: "g", Exit: 0, MS: 1, Decision: "deny", Reason: "no"}, {Name: "f", MS: 3, Error: "boom"}},
		Decision: "deny", Reason: "no", Degraded: []string{"d"}, Exit: 2, Stderr: "no\nreally\n",
		Problems: []string{"p"}, Truncated: []string{"stdout"}}
	want := `call abc
  time: ` + e.Time.Local().Format("2006-01-02 15:04:05.000 MST") + `, 2.5 ms
  tool: claude-code 2.1
  detection: claude-code, from the payload (score 9, certain)
    +5 has x
  event: PreToolUse -> before_tool_execute
  tool call: Bash (shell): ls
  config: /p/.openhook.json (allowed)
  hooks:
    g (/p/.openhook.json:2; before_tool_execute): matched
    n (/p/.openhook.json:3; before_prompt): not run: listens to before_prompt
  g: exit 0 after 1.0 ms: deny (no)
  f: failed after 3.0 ms: boom
  merged: deny (no)
    degraded: d
  answer: exit 2
    stderr: no really
  problem: p
  cut to keep the record small: stdout
`
	assert.Equal(t, want, e.Explain())
}

// What the tool and the handlers wrote reaches the terminal visibly: an
// escape sequence cannot hide a command, rewrite the screen or set the
// clipboard (OSC 52), and a bidirectional override cannot reorder it.
func TestShowEscapesTerminalControls(t *testing.T) {
	hostile := "rm -rf ~ \x1b[2K\r\x1b]52;c;cm0gLXJmIH4=\x07\u009b1A echo \u202etxt.exe\u2066\x9b"
	e := Entry{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ID: "abc", Provider: "claude-code", Version: "2.1\x1b[8m",
		Native: "PreToolUse\x07", Event: "before_tool_execute", NativeTool: "Bash\u202e", Tool: "shell", Command: hostile,
		Cwd: hostile, Handlers: []string{"g\x1b"}, Decision: "deny", Reason: hostile, Context: hostile, Message: hostile,
		Runs:   []Run{{Name: "g\x1b", Decision: "deny", Reason: hostile, Context: hostile}, {Name: "f", Error: hostile}},
		Stdout: hostile, Stderr: hostile, Notes: []string{hostile}, Problems: []string{hostile}, Degraded: []string{hostile}}
	var table bytes.Buffer
	require.NoError(t, (&Table{W: &table}).Print([]*Record{{Entry: e}}))
	for name, out := range map[string]string{"explain": e.Explain(), "log": table.String()} {
		for _, c := range []string{"\x1b", "\x07", "\r", "\u009b", "\x9b", "\u202e", "\u2066"} {
			assert.NotContains(t, out, c, "%s: %q", name, c)
		}
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			assert.False(t, strings.HasPrefix(l, "txt") || strings.HasPrefix(l, "]52"), "%s: a value broke the line: %q", name, l)
		}
	}
	assert.Contains(t, e.Explain(), `tool call: Bash\u202e (shell): rm -rf ~ \x1b[2K\r\x1b]52;c;cm0gLXJmIH4=\x07\u009b1A echo \u202etxt.exe\u2066\x9b`)
}
