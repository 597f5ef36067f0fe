package detect_test

import (
	"testing"

	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// TestSharedRegistrations: several tools run the hooks registered in
// another tool's file (Grok Build runs .claude/settings.json and
// .cursor/hooks.json; Tabnine CLI is Gemini CLI's fork with Gemini's
// payload). The registration's --provider then names the wrong tool, and
// the caller's own evidence must win over it; with no such evidence the
// hint stands. Detect and Decide (the pruned path run uses) must agree.
func TestSharedRegistrations(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	const (
		grokPre = `{"hookEventName":"pre_tool_use","sessionId":"s1","cwd":"/p","workspaceRoot":"/p","toolName":"run_terminal_command","toolInput":{"command":"ls"}}`
		// A lifecycle payload has no tool: only the event name and
		// workspaceRoot are Grok's.
		grokStop    = `{"hookEventName":"stop","sessionId":"s1","cwd":"/p","workspaceRoot":"/p"}`
		claudePre   = `{"session_id":"4b0f8a52-1c1e-4d0e-9a57-2f0b8f6b1d11","transcript_path":"/home/dev/.claude/projects/-p/4b0f8a52.jsonl","cwd":"/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_01ABCDEF"}`
		geminiTool  = `{"session_id":"s","transcript_path":"/home/dev/.gemini/tmp/p/chats/session-1.jsonl","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-27T09:12:41.503Z","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`
		neutralTool = `{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-27T09:12:41.503Z","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`
	)
	cases := []struct {
		name, payload, hint string
		env                 func(string) string
		want                string
	}{
		// Grok calls a hook registered in .claude/settings.json.
		{"grok via claude's file", grokPre, "claude-code", env("GROK_HOOK_EVENT", "pre_tool_use"), "grok"},
		{"grok via claude's file, no env", grokPre, "claude-code", env(), "grok"},
		{"grok stop via claude's file", grokStop, "claude-code", env("GROK_HOOK_EVENT", "stop"), "grok"},
		// ... and in .cursor/hooks.json.
		{"grok via cursor's file", grokPre, "cursor", env("GROK_HOOK_EVENT", "pre_tool_use"), "grok"},
		{"grok stop via cursor's file", grokStop, "cursor", env("GROK_HOOK_EVENT", "stop"), "grok"},
		// GROK_HOOK_EVENT is what Grok sets for every hook it runs, but a
		// payload in Claude's keys is read as Claude's: Grok's field paths
		// would find no tool call in it for a policy to stop.
		{"grok env, claude's payload", claudePre, "claude-code", env("GROK_HOOK_EVENT", "pre_tool_use"), "claude-code"},
		{"grok env, plain claude keys", `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "claude-code", env("GROK_HOOK_EVENT", "pre_tool_use"), "claude-code"},
		// Claude Code calling its own registration stays Claude Code.
		{"claude's own call", claudePre, "claude-code", env("CLAUDECODE", "1"), "claude-code"},
		{"claude without hint", claudePre, "", env(), "claude-code"},
		// Tabnine sends Gemini CLI's payload; its variables decide, over a
		// gemini-cli hint and over Gemini's transcript path.
		{"tabnine under gemini's hint", neutralTool, "gemini-cli", env("TABNINE_PROJECT_DIR", "/p", "TABNINE_CLI", "1"), "tabnine"},
		{"tabnine env over gemini's shape", geminiTool, "gemini-cli", env("TABNINE_CLI", "1"), "tabnine"},
		{"tabnine by its hint", neutralTool, "tabnine", env(), "tabnine"},
		// Gemini CLI with no Tabnine evidence stays Gemini CLI, hint or not.
		{"gemini's own call", geminiTool, "gemini-cli", env("GEMINI_SESSION_ID", "s"), "gemini-cli"},
		{"gemini without hint", neutralTool, "", env(), "gemini-cli"},
		// Cortex Code's payload is Claude's: the hint install writes names it.
		{"cortex by its hint", `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "cortex-code", env(), "cortex-code"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := provider.Payload{Raw: []byte(c.payload), Env: c.env}
			for _, det := range []detect.Result{detect.Detect(p, c.hint), detect.Decide(p, c.hint)} {
				require.NotNil(t, det.Provider, det.Explain())
				require.Equal(t, c.want, det.Provider.ID, det.Explain())
			}
		})
	}
}
