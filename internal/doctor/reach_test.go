package doctor

import (
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// What doctor notes of a configured hook under a tool it is registered in.
func TestReach(t *testing.T) {
	for _, tc := range []struct {
		name  string
		entry string // a Hook Interchange entry
		tool  *provider.Provider
		want  string // "" when the tool calls it as written
	}{
		{"no event", `{"event":"session_start","handler":{"command":"./a.sh","dialect":"claude-code"}}`, provider.Windsurf,
			"never fires in Windsurf: it has no session_start event"},
		{"event", `{"event":"session_start","handler":{"command":"./a.sh","dialect":"claude-code"}}`, provider.Gemini, ""},
		{"matcher of dialect names", `{"event":"before_tool_execute","matcher":"Bash","handler":{"command":"./a.sh","dialect":"claude-code"}}`, provider.Gemini, ""},
		{"canonical names", `{"event":"before_tool_execute","matcher":["file_edit","file_write"],"handler":{"command":"./a.sh","dialect":"codex"}}`, provider.Gemini, ""},
		{"narrowed import", `{"event":"before_tool_execute","matcher":["Edit","Write","file_edit"],"handler":{"command":"./a.sh","dialect":"codex"}}`, provider.Gemini,
			"fires for fewer tools in Gemini CLI than in Codex: its matcher selects file_write in Codex, but not Gemini CLI's write_file"},
		{"no tool", `{"event":"before_tool_execute","matcher":"NoSuchTool","handler":{"command":"./a.sh"}}`, provider.Gemini,
			"never fires in Gemini CLI: its matcher selects none of its tools"},
		{"mcp only", `{"event":"before_tool_execute","matcher":{"pattern":"^mcp_"},"handler":{"command":"./a.sh"}}`, provider.Gemini, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := config.Parse("/p/.openhook.json", []byte(`{"spec":"hooks/0.1","hooks":[`+tc.entry+`]}`))
			require.NoError(t, err)
			h := f.Hooks[0]
			require.Equal(t, tc.want, reach(tc.tool, h, h.On[0]))
		})
	}
}
