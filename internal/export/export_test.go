package export

import (
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

func TestEncode(t *testing.T) {
	doc := []byte(`{"spec": "hooks/0.1", "hooks": [
		{"name": "guard", "event": "before_tool_execute", "matcher": ["shell", "file_write"], "handler": {"command": "./guard.sh", "timeout": 5}, "blocking": true},
		{"event": "after_tool_execute", "handler": {"command": "./log.sh"}, "blocking": true},
		{"event": "before_tool_execute", "matcher": {"mcp": {"server": "github", "tool": "create_issue"}}, "handler": {"command": "./gh.sh"}},
		{"use": "hookshim/destructive-shell"},
		{"event": "before_compact", "handler": {"type": "rule", "if": "true", "decision": "deny", "reason": "x"}},
		{"event": "session_end", "handler": {"command": "./end.sh"}, "blocking": true}]}`)
	for _, c := range []struct {
		id    string
		paths map[string]string // gjson path: value
		notes []string
	}{
		{"claude-code", map[string]string{
			"hooks.PreToolUse.0.matcher":          "Bash|PowerShell|Write",
			"hooks.PreToolUse.0.hooks.0.timeout":  "5",
			"hooks.PreToolUse.1.matcher":          "mcp__github__create_issue",
			"hooks.PostToolUse.0.hooks.0.command": "./log.sh",
		}, []string{
			"hook 6: blocking has no effect on SessionEnd: the event only observes",
			"hook 4: the built-in policy hookshim/destructive-shell runs only inside hookshim: not exported",
			"hook 5: a rule handler has no command Claude Code can run: not exported",
		}},
		{"windsurf", map[string]string{
			"hooks.pre_run_command.0.command":  "./guard.sh",
			"hooks.pre_write_code.0.command":   "./guard.sh",
			"hooks.post_read_code.0.command":   "./log.sh",
			"hooks.pre_mcp_tool_use.0.command": "./gh.sh",
		}, []string{
			"hook 1 (guard): timeout dropped",
			"hook 6: session_end has no Windsurf event: not exported",
			"hook 1 (guard): Windsurf splits before_tool_execute by kind of tool: the hook is written for each of pre_write_code, pre_run_command",
		}},
	} {
		p := provider.Lookup(c.id)
		res, err := Encode(p, "x.json", doc)
		require.NoError(t, err, c.id)
		require.NoError(t, Check(p, res), c.id)
		for path, want := range c.paths {
			require.Equal(t, want, gjson.GetBytes(res.Native, path).String(), "%s %s\n%s", c.id, path, res.Native)
		}
		all := strings.Join(res.Notes, "\n")
		for _, n := range c.notes {
			require.Contains(t, all, n, c.id)
		}
	}

	// A tool whose hooks are no JSON file of events has nothing to write.
	_, err := Encode(provider.Lookup("opencode"), "x.json", doc)
	require.ErrorContains(t, err, "export has nothing to write")
	// A config hookshim refuses is not exported.
	_, err = Encode(provider.Claude, "x.json", []byte(`{"spec": "hooks/0.1", "hooks": []}`))
	require.ErrorContains(t, err, `"hooks" is empty`)
}

// Check finds a hook missing from what was written.
func TestCheckFindsALoss(t *testing.T) {
	res, err := Encode(provider.Claude, "x.json", []byte(`{"spec": "hooks/0.1", "hooks": [{"event": "session_start", "handler": {"command": "./a.sh"}}]}`))
	require.NoError(t, err)
	res.Hooks = append(res.Hooks, Hook{Native: "Stop", Event: "agent_stop", Command: "./b.sh"})
	require.ErrorContains(t, Check(provider.Claude, res), "does not read back as written")
}
