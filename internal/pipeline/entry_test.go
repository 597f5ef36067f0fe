package pipeline

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const twoHooks = `{"spec": "hooks/0.1", "hooks": [
  {"name": "guard", "event": "before_tool_execute", "matcher": "shell",
   "handler": {"type": "command", "command": "echo '{\"decision\":\"deny\",\"reason\":\"no\"}'"}},
  {"name": "edits", "event": "before_tool_execute", "matcher": "file_edit",
   "handler": {"type": "command", "command": "true"}},
  {"name": "prompts", "event": "before_prompt", "handler": {"type": "command", "command": "true"}},
  {"name": "rule", "event": "before_tool_execute", "handler": {"type": "rule", "if": "runs('ls')", "decision": "ask"}}
]}`

// The log's record of a call: who called, what ran and why the others
// did not, and the answer.
func TestEntry(t *testing.T) {
	unixOnly(t)
	getenv, dir := env(t, twoHooks)
	ans, rec := Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code", Version: func() string { return "v1.2.3" }})
	e := rec.Entry(ans)
	assert.Equal(t, rec.ID, e.ID)
	assert.Equal(t, "claude-code", e.Provider)
	assert.Equal(t, "PreToolUse", e.Native)
	assert.Equal(t, "before_tool_execute", e.Event)
	assert.Equal(t, "Bash", e.NativeTool)
	assert.Equal(t, "shell", e.Tool)
	assert.Equal(t, "ls", e.Command)
	assert.Equal(t, "deny", e.Decision)
	assert.Equal(t, "no", e.Reason)
	assert.Equal(t, ans.Exit, e.Exit)
	assert.Equal(t, string(ans.Stdout), e.Stdout)
	require.NotNil(t, e.Detection)
	assert.Equal(t, "claude-code", e.Detection.Provider)
	assert.Equal(t, "claude-code", e.Detection.Hint)
	assert.Contains(t, e.Detection.Signals, "+8 --provider claude-code")
	require.Len(t, e.Hooks, 4)
	why := map[string]string{}
	for _, h := range e.Hooks {
		if h.Matched {
			why[h.Name] = "matched"
		} else {
			why[h.Name] = h.Why
		}
	}
	assert.Equal(t, map[string]string{
		"guard":   "matched",
		"edits":   "matcher file_edit does not match tool Bash (shell)",
		"prompts": "listens to before_prompt, not before_tool_execute",
		"rule":    "matched",
	}, why)
	require.Len(t, e.Runs, 2)
	assert.Empty(t, e.HandlerErrors)
}

func TestWeighed(t *testing.T) {
	assert.Equal(t, "+5 has cursor_version", weighed(5, "has cursor_version"))
	assert.Equal(t, "-3 x", weighed(-3, "x"))
	assert.Equal(t, "+0 x", weighed(0, "x"))
}

// --explain says how the tool was told, the configs, which handlers ran
// and what each answered, and the verdict.
func TestExplain(t *testing.T) {
	unixOnly(t)
	getenv, dir := env(t, twoHooks)
	_, rec := Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code"})
	out := rec.Explain()
	assert.True(t, strings.HasPrefix(out, "hookshim: explain\n  "), out)
	assert.Contains(t, out, "\n  event: PreToolUse -> before_tool_execute\n")
	assert.Contains(t, out, "\n  handlers: guard, rule\n")
	assert.Regexp(t, `\n    guard: exit 0 after \d+m?s: decision deny\n`, out)
	assert.Regexp(t, `\n    rule: rule true after [^:]+: decision ask\n      if: runs\('ls'\)\n`, out)
	assert.Contains(t, out, "\n  verdict: deny (no)\n")

	getenv, dir = env(t, "")
	_, rec = Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code"})
	assert.Contains(t, rec.Explain(), "\n  handlers: none, without a config; nothing was run\n")
}
