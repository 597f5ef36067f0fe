package dialect

import (
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

func TestCheck(t *testing.T) {
	f, err := config.Parse("/p/.openhook.json", []byte(`{"spec": "hooks/0.1", "hooks": [
  {"name": "ok", "event": "before_tool_execute", "handler": {"type": "command", "command": "x", "dialect": "claude-code"}},
  {"name": "plain", "event": "before_model", "handler": {"type": "command", "command": "x"}},
  {"name": "plugin", "event": "before_tool_execute", "handler": {"type": "command", "command": "x", "dialect": "opencode"}},
  {"name": "typo", "event": "before_tool_execute", "handler": {"type": "command", "command": "x", "dialect": "clode"}},
  {"name": "model", "event": "before_model", "handler": {"type": "command", "command": "x", "dialect": "claude-code"}},
  {"name": "every", "event": "*", "handler": {"type": "command", "command": "x", "dialect": "claude-code"}}
]}`))
	require.NoError(t, err)
	got := map[string]*config.Problem{}
	for _, h := range f.Hooks {
		got[h.Name] = Check(h)
	}
	require.Nil(t, got["ok"])
	require.Nil(t, got["plain"], "no dialect: nothing to check")
	require.Nil(t, got["every"], "every event: the dialect's own are the ones it runs on")
	require.Contains(t, got["plugin"].Msg, `dialect "opencode": OpenCode has no command hooks`)
	require.Contains(t, got["typo"].Msg, `dialect "clode" is not a known tool`)
	require.Equal(t, Problem, got["typo"].Kind)
	require.Equal(t, "/p/.openhook.json:6", got["model"].Pos)
	require.Equal(t, "Claude Code has no event for before_model: the handler, written for it, fails there", got["model"].Msg)
	require.Equal(t, "claude-code", got["model"].Path)
}

func TestHasEvent(t *testing.T) {
	claude := provider.Lookup("claude-code")
	require.True(t, HasEvent(claude, event.BeforeToolExecute))
	require.True(t, HasEvent(claude, event.BeforePrompt))
	require.False(t, HasEvent(claude, event.BeforeModel))
}
