package provider

import (
	"strings"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
)

// Gemini CLI.
//
// Sources: google-gemini/gemini-cli docs/hooks/reference.md and
// packages/core/src/hooks/{hookRunner,hookAggregator,types}.ts, and what
// Gemini CLI 0.61.0 did when run here (shared/reference/real-clients.md):
//   - hookRunner reads stdout (else stderr) as JSON whatever the exit code,
//     and turns non-JSON text with any exit code >= 2 into a denial: a shim
//     that exits 126/127 blocks every tool, so hookshim answers exit 0 only;
//   - deny is the top-level decision "deny" with reason;
//   - context given on BeforeTool never reaches the model (measured), so
//     it is not offered there;
//   - "ask" on BeforeTool hangs a headless run waiting for a confirmation
//     that never comes (measured), so ask degrades;
//   - rewrites are hookSpecificOutput.tool_input, merged over the arguments;
//   - text on stderr of a successful hook with empty stdout is shown to the
//     user as "Hook system message", never to the model.
var Gemini = &Provider{
	ID:   "gemini-cli",
	Name: "Gemini CLI",
	Signals: []Signal{
		OneOf("hook_event_name", 8, "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent",
			"BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress"),
		When("timestamp is an ISO string on a shared event", 3, func(p Payload) bool {
			switch hookEventName(p) {
			case "SessionStart", "SessionEnd", "Notification":
				return isISOTime(p.Get("timestamp").Str)
			}
			return false
		}),
		When(`transcript_path is under "/.gemini/tmp/"`, 5, func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.gemini/tmp/")
		}),
		Has("mcp_context", 3),
		Has("permission_mode", -2),
		EnvSet("GEMINI_SESSION_ID", 2),
		EnvSet("GEMINI_CWD", 1),
	},
	Events: []Spec{
		{"BeforeTool", event.BeforeToolExecute, CanDeny | CanRewrite | CanStop | CanMessage},
		{"AfterTool", event.AfterToolExecute, CanDeny | CanContext | CanStop | CanMessage | CanSuppress},
		{"BeforeAgent", event.BeforePrompt, CanDeny | CanContext | CanStop | CanMessage},
		{"AfterAgent", event.AgentStop, CanDeny | CanStop | CanMessage},
		{"BeforeModel", event.BeforeModel, CanDeny | CanStop | CanMessage},
		{"AfterModel", event.AfterModel, CanDeny | CanStop | CanMessage},
		{"BeforeToolSelection", event.BeforeToolSelection, 0},
		{"SessionStart", event.SessionStart, CanContext | CanMessage},
		{"SessionEnd", event.SessionEnd, CanMessage},
		{"Notification", event.Notification, CanMessage},
		{"PreCompress", event.BeforeCompact, CanMessage},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "cwd",
		Transcript: "transcript_path",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolOutput: "tool_response",
		Prompt:     "prompt",
	},
	Tools: map[string]string{
		"run_shell_command": event.ToolShell,
		"read_file":         event.ToolFileRead,
		"read_many_files":   event.ToolFileRead,
		"write_file":        event.ToolFileWrite,
		"replace":           event.ToolFileEdit,
		"grep_search":       event.ToolSearch,
		"glob":              event.ToolFind,
		"google_web_search": event.ToolWebSearch,
		"web_fetch":         event.ToolWebFetch,
		"invoke_agent":      event.ToolAgent,
	},
	SplitMCP: geminiMCP,
	Keep: map[string]string{
		"source":            "source",
		"reason":            "reason",
		"trigger":           "trigger",
		"message":           "message",
		"notification_type": "notification_type",
		"details":           "details",
		"stop_hook_active":  "stop_hook_active",
		"prompt_response":   "last_assistant_message",
	},
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		// Gemini has no failure event: a failed tool is an AfterTool whose
		// tool_response carries an error object.
		if spec.Native == "AfterTool" && ev.Tool != nil {
			if e := p.Get("tool_response.error"); e.Exists() && e.Type != 0 && e.Raw != "null" {
				ev.Name = event.ToolUseFailure
				ev.Tool.Error = []byte(e.Raw)
				ev.Tool.Output = nil
			}
		}
		if spec.Native == "AfterAgent" {
			if pr := p.Get("prompt"); pr.Exists() {
				ev.Set("prompt", []byte(pr.Raw))
			}
		}
	},
	Encode:        encodeGemini,
	ProjectDirEnv: []string{"GEMINI_PROJECT_DIR", "GEMINI_CWD"},
	Stderr:        true,
}

// geminiMCP splits MCP tool names. mcp_context names server and tool
// exactly; without it, mcp_<server>_<tool> (v0.34.0+) is split at the first
// underscore after the prefix, which is right unless the server name has one.
func geminiMCP(native string, p Payload) *event.MCP {
	if c := p.Get("mcp_context"); c.IsObject() {
		server, tool := c.Get("server_name").Str, c.Get("tool_name").Str
		if server != "" {
			if tool == "" {
				tool = strings.TrimPrefix(native, "mcp_"+server+"_")
			}
			return &event.MCP{Server: server, Tool: tool}
		}
	}
	rest, ok := strings.CutPrefix(native, "mcp_")
	if !ok {
		return nil
	}
	server, tool, ok := strings.Cut(rest, "_")
	if !ok || server == "" || tool == "" {
		return nil
	}
	return &event.MCP{Server: server, Tool: tool}
}

func encodeGemini(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	top := &wire.Object{}
	hso := &wire.Object{}
	switch v.Decision {
	case decision.Deny:
		top.Str("decision", "deny")
		if v.Reason != "" {
			top.Str("reason", v.Reason)
		}
	case decision.Allow, decision.None:
		if v.UpdatedInput != nil {
			top.Str("decision", "allow")
		}
	}
	if v.UpdatedInput != nil && v.Decision != decision.Deny {
		hso.Raw("tool_input", v.UpdatedInput)
	}
	if v.Context != "" {
		hso.Str("hookEventName", spec.Native)
		hso.Str("additionalContext", v.Context)
	}
	if v.Stop {
		top.Bool("continue", false)
		if v.StopReason != "" {
			top.Str("stopReason", v.StopReason)
		}
	}
	if v.SuppressOutput {
		top.Bool("suppressOutput", true)
	}
	if v.SystemMessage != "" {
		top.Str("systemMessage", v.SystemMessage)
	}
	if hso.Len() > 0 {
		top.Obj("hookSpecificOutput", hso)
	}
	return JSONOrEmpty(top)
}
