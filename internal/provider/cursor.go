package provider

import (
	"strings"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
)

// Cursor (IDE and cursor-agent CLI).
//
// Sources: https://cursor.com/docs/hooks and
// https://cursor.com/docs/reference/third-party-hooks (see
// shared/reference/cursor-copilot-kiro-windsurf-cline.md §2):
//   - every payload carries cursor_version, conversation_id and
//     generation_id, also when Cursor runs hooks it imported from
//     .claude/settings.json (hook_event_name is then Cursor's camelCase);
//   - answers are snake_case JSON on stdout, exit 0: permission
//     allow/deny/ask with user_message and agent_message;
//   - with failClosed, invalid or missing JSON blocks, so hookshim always
//     prints at least {};
//   - context reaches the model only through additional_context on
//     sessionStart and postToolUse; "ask" is accepted but not enforced on
//     preToolUse; stop continues only through followup_message;
//   - split events (beforeShellExecution, beforeReadFile...) carry no
//     tool_input: hookshim builds one so that policies see one shape.
var Cursor = &Provider{
	ID:   "cursor",
	Name: "Cursor",
	Signals: []Signal{
		Has("cursor_version", 10),
		Has("conversation_id", 3),
		Has("generation_id", 3),
		Array("workspace_roots", 2),
		EnvSet("CURSOR_VERSION", 2),
		EnvSet("CURSOR_PROJECT_DIR", 1),
	},
	Events: []Spec{
		{"sessionStart", event.SessionStart, CanContext},
		{"sessionEnd", event.SessionEnd, 0},
		{"preToolUse", event.BeforeToolExecute, CanDeny | CanAllow | CanRewrite | CanMessage},
		{"postToolUse", event.AfterToolExecute, CanContext},
		{"postToolUseFailure", event.ToolUseFailure, 0},
		{"subagentStart", event.SubagentStart, CanDeny | CanAllow | CanMessage},
		{"subagentStop", event.SubagentStop, CanDeny},
		{"beforeShellExecution", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanMessage},
		{"afterShellExecution", event.AfterToolExecute, 0},
		{"beforeMCPExecution", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanMessage},
		{"afterMCPExecution", event.AfterToolExecute, 0},
		{"beforeReadFile", event.BeforeToolExecute, CanDeny | CanAllow | CanMessage},
		{"afterFileEdit", event.AfterToolExecute, 0},
		{"beforeSubmitPrompt", event.BeforePrompt, CanDeny | CanMessage},
		{"preCompact", event.BeforeCompact, 0},
		{"stop", event.AgentStop, CanDeny},
		{"afterAgentResponse", event.AfterAgentResponse, 0},
		{"afterAgentThought", "", 0},
		// Tab completions are not agent actions: no canonical event, so
		// policies do not run on every keystroke.
		{"beforeTabFileRead", "", 0},
		{"afterTabFileEdit", "", 0},
		{"workspaceOpen", "", 0},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "conversation_id",
		Cwd:        "cwd",
		Transcript: "transcript_path",
		Model:      "model",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "tool_use_id",
		ToolOutput: "tool_output",
		ToolError:  "error_message",
		Prompt:     "prompt",
	},
	Tools: map[string]string{
		"Shell":      event.ToolShell,
		"Read":       event.ToolFileRead,
		"Write":      event.ToolFileWrite,
		"Edit":       event.ToolFileEdit,
		"StrReplace": event.ToolFileEdit,
		"Grep":       event.ToolSearch,
		"Glob":       event.ToolFind,
		"WebSearch":  event.ToolWebSearch,
		"WebFetch":   event.ToolWebFetch,
		"Task":       event.ToolAgent,
	},
	SplitMCP: func(native string, p Payload) *event.MCP {
		tool, ok := strings.CutPrefix(native, "MCP:")
		if !ok {
			if !p.Get("mcp_server_name").Exists() {
				return nil
			}
			tool = native
		}
		return &event.MCP{Server: p.Get("mcp_server_name").Str, Tool: tool}
	},
	Keep: map[string]string{
		"status":              "status",
		"loop_count":          "loop_count",
		"reason":              "reason",
		"failure_type":        "failure_type",
		"is_interrupt":        "is_interrupt",
		"composer_mode":       "composer_mode",
		"is_background_agent": "is_background_agent",
		"subagent_type":       "agent_type",
		"subagent_id":         "agent_id",
		"task":                "task",
		"text":                "text",
		"attachments":         "attachments",
		"duration_ms":         "duration_ms",
		"final_status":        "final_status",
	},
	Adjust:        adjustCursor,
	Encode:        encodeCursor,
	ProjectDirEnv: []string{"CURSOR_PROJECT_DIR"},
}

// adjustCursor gives split events the tool they are about, and finds a
// working directory: cwd may be empty (cursor-agent), then tool_input.cwd
// or the first workspace root stands in.
func adjustCursor(p Payload, spec *Spec, ev *event.Event) {
	if ev.Cwd == "" {
		if c := p.Get("tool_input.cwd").Str; c != "" {
			ev.Cwd = c
		} else if r := p.Get("workspace_roots.0").Str; r != "" {
			ev.Cwd = r
		}
	}
	if ev.SessionID == "" {
		ev.SessionID = p.Get("session_id").Str
	}
	obj := func(pairs ...string) []byte {
		o := &wire.Object{}
		for i := 0; i+1 < len(pairs); i += 2 {
			if r := p.Get(pairs[i+1]); r.Exists() {
				o.Raw(pairs[i], []byte(r.Raw))
			}
		}
		return o.Bytes()
	}
	switch spec.Native {
	case "beforeShellExecution", "afterShellExecution":
		ev.Tool = &event.Tool{Name: event.ToolShell, Native: "Shell", Input: obj("command", "command", "cwd", "cwd"),
			Command: p.Get("command").Str}
		if o := p.Get("output"); o.Exists() {
			ev.Tool.Output = []byte(o.Raw)
		}
	case "beforeReadFile":
		ev.Tool = &event.Tool{Name: event.ToolFileRead, Native: "Read", Input: obj("file_path", "file_path"),
			FilePath: p.Get("file_path").Str}
	case "afterFileEdit":
		ev.Tool = &event.Tool{Name: event.ToolFileEdit, Native: "Write", Input: obj("file_path", "file_path", "edits", "edits"),
			FilePath: p.Get("file_path").Str}
	case "afterMCPExecution":
		if ev.Tool != nil {
			if r := p.Get("result_json"); r.Exists() {
				ev.Tool.Output = []byte(r.Raw)
			}
		}
	}
	if spec.Native == "postToolUseFailure" && ev.Tool != nil && ev.Tool.Error == nil {
		ev.Tool.Error = []byte(`""`)
	}
}

func encodeCursor(spec *Spec, v *decision.Verdict) Answer {
	o := &wire.Object{}
	if spec == nil {
		return JSON(o)
	}
	switch spec.Native {
	case "preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "subagentStart":
		perm := ""
		switch v.Decision {
		case decision.Deny:
			perm = "deny"
		case decision.Ask:
			perm = "ask"
		case decision.Allow:
			perm = "allow"
		case decision.None:
			if v.UpdatedInput != nil {
				perm = "allow"
			}
		}
		if perm != "" {
			o.Str("permission", perm)
		}
		msg := v.Reason
		if v.SystemMessage != "" {
			msg = joinNonEmpty("\n", msg, v.SystemMessage)
		}
		if msg != "" && perm != "" {
			o.Str("user_message", msg)
		}
		if v.Reason != "" && (perm == "deny" || perm == "ask") && spec.Native != "beforeReadFile" && spec.Native != "subagentStart" {
			o.Str("agent_message", v.Reason)
		}
		if v.UpdatedInput != nil && perm == "allow" {
			o.Raw("updated_input", v.UpdatedInput)
		}
	case "beforeSubmitPrompt":
		switch v.Decision {
		case decision.Deny:
			o.Bool("continue", false)
			if v.Reason != "" {
				o.Str("user_message", v.Reason)
			}
		case decision.Allow:
			o.Bool("continue", true)
		}
	case "stop", "subagentStop":
		if v.Decision == decision.Deny && v.Reason != "" {
			o.Str("followup_message", v.Reason)
		}
	}
	if v.Context != "" {
		o.Str("additional_context", v.Context)
	}
	return JSON(o)
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
