package provider

import (
	"strings"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
)

// The Claude-derived dialect: snake_case stdin with session_id, cwd,
// transcript_path and hook_event_name; camelCase stdout with
// hookSpecificOutput.hookEventName. Claude Code defined it; Codex, Qwen Code,
// Factory Droid, Kimi Code and Copilot's PascalCase registrations speak
// variants of it. What differs between them stays in their own files.

var claudeFields = Fields{
	SessionID:  "session_id",
	Cwd:        "cwd",
	Transcript: "transcript_path",
	Model:      "model",
	ToolName:   "tool_name",
	ToolInput:  "tool_input",
	ToolCallID: "tool_use_id",
	ToolOutput: "tool_response",
	ToolError:  "error",
	Prompt:     "prompt",
}

// claudeKeep are the per-event fields of the Claude dialect that handlers
// see under the same name.
var claudeKeep = map[string]string{
	"source":                 "source",
	"reason":                 "reason",
	"trigger":                "trigger",
	"message":                "message",
	"title":                  "title",
	"notification_type":      "notification_type",
	"stop_hook_active":       "stop_hook_active",
	"last_assistant_message": "last_assistant_message",
	"agent_id":               "agent_id",
	"agent_type":             "agent_type",
	"agent_transcript_path":  "agent_transcript_path",
	"custom_instructions":    "custom_instructions",
	"compact_summary":        "compact_summary",
	"permission_mode":        "permission_mode",
	"error_details":          "error_details",
	"is_interrupt":           "is_interrupt",
	"duration_ms":            "duration_ms",
	"permission_suggestions": "permission_suggestions",
	"file_path":              "file_path",
	"memory_type":            "memory_type",
	"load_reason":            "load_reason",
	"old_cwd":                "old_cwd",
	"new_cwd":                "new_cwd",
	"task_id":                "task_id",
	"task_subject":           "task_subject",
	"task_description":       "task_description",
	"teammate_name":          "teammate_name",
	"team_name":              "team_name",
	"mcp_server_name":        "mcp_server_name",
}

// splitDoubleUnderscore splits mcp__<server>__<tool>.
func splitDoubleUnderscore(native string, _ Payload) *event.MCP {
	rest, ok := strings.CutPrefix(native, "mcp__")
	if !ok {
		return nil
	}
	server, tool, ok := strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return nil
	}
	return &event.MCP{Server: server, Tool: tool}
}

// hookEventName reads hook_event_name.
func hookEventName(p Payload) string { return p.Get("hook_event_name").Str }

// claudeStyle says how a Claude-dialect tool differs in what it accepts.
type claudeStyle struct {
	// explicitAllow: permissionDecision "allow" may be sent without a
	// rewrite (Codex rejects it).
	explicitAllow bool
}

// encode writes a verdict in the Claude dialect. The verdict is already
// degraded to what spec can express.
func (cs claudeStyle) encode(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	top := &wire.Object{}
	hso := &wire.Object{}
	hso.Str("hookEventName", spec.Native)
	specific := false

	switch spec.Canonical {
	case event.BeforeToolExecute:
		decisionStr := ""
		switch v.Decision {
		case decision.Deny:
			decisionStr = "deny"
		case decision.Ask:
			decisionStr = "ask"
		case decision.Allow:
			if cs.explicitAllow || v.UpdatedInput != nil {
				decisionStr = "allow"
			}
		case decision.None:
			if v.UpdatedInput != nil {
				// A rewrite is an approval of the rewritten input: the
				// Claude dialect applies updatedInput only with allow or ask.
				decisionStr = "allow"
			}
		}
		if decisionStr != "" {
			hso.Str("permissionDecision", decisionStr)
			if v.Reason != "" {
				hso.Str("permissionDecisionReason", v.Reason)
			}
			specific = true
		}
		if v.UpdatedInput != nil && v.Decision != decision.Deny {
			hso.Raw("updatedInput", v.UpdatedInput)
			specific = true
		}
	case event.PermissionRequest:
		d := &wire.Object{}
		switch v.Decision {
		case decision.Allow:
			d.Str("behavior", "allow")
			if v.UpdatedInput != nil {
				d.Raw("updatedInput", v.UpdatedInput)
			}
		case decision.Deny:
			d.Str("behavior", "deny")
			if v.Reason != "" {
				d.Str("message", v.Reason)
			}
		}
		if d.Len() > 0 {
			hso.Obj("decision", d)
			specific = true
		}
	default:
		if v.Decision == decision.Deny {
			top.Str("decision", "block")
			if v.Reason != "" {
				top.Str("reason", v.Reason)
			}
		}
	}
	if v.Context != "" {
		hso.Str("additionalContext", v.Context)
		specific = true
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
	if specific {
		top.Obj("hookSpecificOutput", hso)
	}
	return JSONOrEmpty(top)
}
