package normalize

import (
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each entry of the Agent Host's toolCalls is a canonical call of its own;
// one that cannot be read keeps its place, marked unread.
func TestCalls(t *testing.T) {
	type call struct {
		name, native, command, shell, path string
		unread                             bool
	}
	for _, tc := range []struct {
		name  string
		calls string
		want  []call
	}{
		{"args as a JSON string", `[{"name":"bash","args":"{\"command\":\"ls -la\"}"}]`,
			[]call{{name: "shell", native: "bash", command: "ls -la"}}},
		{"args as an object", `[{"name":"bash","args":{"command":"make"}}]`,
			[]call{{name: "shell", native: "bash", command: "make"}}},
		{"powershell", `[{"name":"powershell","args":"{\"command\":\"Remove-Item -Recurse x\"}"}]`,
			[]call{{name: "shell", native: "powershell", command: "Remove-Item -Recurse x", shell: "powershell"}}},
		{"a name spelt otherwise", `[{"name":"PowerShell","args":"{\"command\":\"dir\"}"}]`,
			[]call{{name: "shell", native: "PowerShell", command: "dir", shell: "powershell"}}},
		{"several, in order", `[{"name":"view","args":"{\"path\":\"a.txt\"}"},{"name":"bash","args":"{\"command\":\"rm -rf /\"}"}]`,
			[]call{{name: "file_read", native: "view", path: "a.txt"}, {name: "shell", native: "bash", command: "rm -rf /"}}},
		{"args not JSON", `[{"name":"bash","args":"rm -rf /"}]`,
			[]call{{name: "shell", native: "bash", unread: true}}},
		{"args an array", `[{"name":"bash","args":["rm","-rf","/"]}]`,
			[]call{{name: "shell", native: "bash", unread: true}}},
		{"no args", `[{"name":"bash"}]`,
			[]call{{name: "shell", native: "bash"}}},
		{"no name", `[{"args":"{\"command\":\"ls\"}"}]`,
			[]call{{unread: true}}},
		{"an entry not an object", `["bash"]`,
			[]call{{unread: true}}},
		{"not a list", `{"name":"bash"}`,
			[]call{{unread: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := []byte(`{"sessionId":"s","cwd":"/p","toolCalls":` + tc.calls + `}`)
			p := provider.NewPayload(raw, func(string) string { return "" })
			ev := Event(provider.VSCode, provider.VSCode.Spec("PreToolUse"), p)
			require.Len(t, ev.Calls, len(tc.want))
			require.Same(t, ev.Calls[0].Tool, ev.Tool, "the event is its first call")
			for i, w := range tc.want {
				c := ev.Calls[i]
				assert.Nil(t, c.Calls)
				assert.Equal(t, "s", c.SessionID)
				assert.Equal(t, "/p", c.Cwd)
				assert.Equal(t, w.name, c.Tool.Name)
				assert.Equal(t, w.native, c.Tool.Native)
				assert.Equal(t, w.command, c.Tool.Command)
				assert.Equal(t, w.shell, c.Tool.Shell)
				assert.Equal(t, w.path, c.Tool.FilePath)
				assert.Equal(t, w.unread, c.Tool.Unread != "", c.Tool.Unread)
				if w.native == "" {
					// It could be any tool: every tool matcher takes it.
					assert.Equal(t, event.ToolNames, c.Tool.Also)
				}
			}
		})
	}
}

// An empty list is no call; more than the bound are read only one past it.
func TestCallsBounds(t *testing.T) {
	p := provider.NewPayload([]byte(`{"toolCalls":[]}`), func(string) string { return "" })
	ev := Event(provider.VSCode, provider.VSCode.Spec("PreToolUse"), p)
	require.NotNil(t, ev.Calls)
	require.Empty(t, ev.Calls)

	list := "["
	for i := 0; i < 3*provider.MaxCalls; i++ {
		if i > 0 {
			list += ","
		}
		list += `{"name":"bash","args":"{\"command\":\"ls\"}"}`
	}
	p = provider.NewPayload([]byte(`{"toolCalls":`+list+`]}`), func(string) string { return "" })
	ev = Event(provider.VSCode, provider.VSCode.Spec("PreToolUse"), p)
	require.Len(t, ev.Calls, provider.MaxCalls+1)
}

// A payload of one call is not split.
func TestNoCalls(t *testing.T) {
	p := provider.NewPayload([]byte(`{"hook_event_name":"PreToolUse","tool_name":"run_in_terminal","tool_input":{"command":"ls"}}`), func(string) string { return "" })
	ev := Event(provider.VSCode, provider.VSCode.Spec("PreToolUse"), p)
	require.Nil(t, ev.Calls)
	require.Equal(t, "ls", ev.Tool.Command)
}
