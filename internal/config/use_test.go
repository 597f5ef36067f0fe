package config

import (
	"testing"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUse(t *testing.T) {
	f, err := Parse("x.json", []byte(`{"spec": "hooks/0.1", "hooks": [
  {"name": "no-rm", "event": "before_tool_execute", "matcher": "shell", "use": "hookshim/destructive-shell",
   "with": {"allow_paths": ["/var/tmp/**"]}},
  {"use": "hookshim/prompt-secrets"},
  {"event": "tool.start", "use": "hookshim/secret-files", "with": {"decision": "ask"}}
]}`))
	require.NoError(t, err)
	require.Len(t, f.Hooks, 3)
	h := f.Hooks[0]
	assert.Equal(t, "use", h.Type)
	assert.Equal(t, "no-rm", h.Name)
	require.NotNil(t, h.Policy)
	assert.Equal(t, "hookshim/destructive-shell", h.Policy.Name())
	assert.Empty(t, h.Check(t.TempDir(), nil), "nothing to start")

	rm := &event.Event{Name: event.BeforeToolExecute, Cwd: "/p", Tool: &event.Tool{Name: event.ToolShell, Command: "rm -rf /"}}
	require.True(t, h.Matches(rm))
	assert.Equal(t, decision.Deny, h.Policy.Eval(rm).Decision)
	tmp := &event.Event{Name: event.BeforeToolExecute, Cwd: "/p", Tool: &event.Tool{Name: event.ToolShell, Command: "rm -rf /var/tmp/x"}}
	assert.Equal(t, decision.None, h.Policy.Eval(tmp).Decision)
	assert.False(t, h.Matches(&event.Event{Name: event.BeforeToolExecute, Tool: &event.Tool{Name: event.ToolFileRead}}))

	// The event defaults to the policy's.
	assert.True(t, f.Hooks[1].Listens(event.BeforePrompt))
	assert.Equal(t, "hook 2", f.Hooks[1].Name)
	assert.True(t, f.Hooks[2].Listens(event.BeforeToolExecute))
}

func TestUseErrors(t *testing.T) {
	const head = "{\"spec\": \"hooks/0.1\", \"hooks\": [\n"
	for entry, want := range map[string]string{
		`{"event": "before_tool_execute", "use": "hookshim/rm"}`:                            `x.json:2:41: unknown policy "hookshim/rm" (built in: hookshim/destructive-shell, hookshim/protected-branches`,
		`{"event": "before_tool_execute", "use": 3}`:                                        `x.json:2:41: "use" must be the name of a built-in policy`,
		`{"event": "before_tool_execute", "use": "hookshim/destructive-shell", "with": 1}`:  `x.json:2:79: "with" must be an object of parameters for hookshim/destructive-shell`,
		"{\"use\": \"hookshim/protected-branches\",\n  \"with\": {\"branch\": [\"main\"]}}": `x.json:3:12: hookshim/protected-branches: unknown parameter "branch" (known: decision, unsure, branches)`,
		"{\"use\": \"hookshim/protected-branches\",\n  \"with\": {\"branches\": \"main\"}}": `x.json:3:24: hookshim/protected-branches: "branches" must be an array of strings`,
		`{"event": "before_prompt", "use": "hookshim/destructive-shell"}`:                   `x.json:2:11: hookshim/destructive-shell reads before_tool_execute and permission_request events, not before_prompt`,
		`{"event": "before_tool_execute", "with": {}}`:                                      `x.json:2:42: "with" gives the parameters of a built-in policy: name it with "use"`,
		`{"use": "hookshim/pipe-to-shell", "handler": {"type": "command", "command": "x"}}`: `x.json:2:9: a hook has either "handler" or "use"`,
		`{"use": "hookshim/pipe-to-shel"}`:                                                  `unknown policy "hookshim/pipe-to-shel" (did you mean "hookshim/pipe-to-shell"?)`,
	} {
		_, err := Parse("x.json", []byte(head+entry+"\n]}"))
		assert.ErrorContainsf(t, err, want, "entry %s", entry)
	}
}
