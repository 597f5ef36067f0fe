package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Mistral Vibe (PyPI mistral-vibe, binary vibe).
//
// Checked against its source, mistralai/mistral-vibe at ac8f1a09 (version
// 2.18.4: vibe/core/hooks/{config,models,executor,manager,_handler,
// _before_tool,_after_tool,_post_agent_turn}.py), and the hooks page of
// its docs (docs.mistral.ai/vibe/code/cli/hooks, 3.x). Not run: Vibe
// installs only from PyPI.
//   - three events, named twice: 2.x says before_tool, after_tool and
//     post_agent_turn, 3.x pre_tool, post_tool and post_agent. The same
//     names are the payload's hook_event_name;
//   - stdin is a pydantic dump: hook_event_name, session_id,
//     transcript_path, cwd, parent_session_id (null outside subagents); tool
//     events add tool_name, tool_call_id and tool_input, after-tool events
//     tool_status (success, failure, cancelled), tool_output (object or
//     null), tool_output_text (what the model will see), tool_error and
//     duration_ms. No variable names the project;
//   - the answer is exit 0 and a JSON object: decision "allow" or "deny",
//     reason, system_message (shown to the user), and
//     hook_specific_output.tool_input (before the tool: replaces the whole
//     input, validated again) or .additional_context (after the tool:
//     appended to what the model sees). Unknown keys are ignored;
//   - any other exit code, a timeout, or stdout that is not a JSON object is
//     a hook failure: a warning, and the action goes ahead. Exit 2 means
//     nothing, so hookshim denies only with exit 0 and decision "deny";
//   - deny before a tool: the tool does not run and the reason is its
//     result. Deny after a tool: the reason replaces the tool's text (the
//     context, if any, follows it). Deny after the turn: the reason is sent
//     as a user message and the agent goes on, at most 3 times a turn.
var Vibe = &Provider{
	ID:      "mistral-vibe",
	Name:    "Mistral Vibe",
	Install: vibeInstall,
	Signals: []Signal{
		// Vibe's event names are its own: lowercase, no _use suffix.
		OneOf("hook_event_name", 8, vibeEvents...),
		Has("tool_call_id", 1),
		Has("parent_session_id", 2),
		Has("tool_output_text", 2),
		Has("tool_status", 1),
	},
	Events: []Spec{
		{"pre_tool", event.BeforeToolExecute, CanDeny | CanRewrite | CanMessage},
		{"post_tool", event.AfterToolExecute, CanDeny | CanContext | CanMessage},
		{"post_agent", event.AgentStop, CanDeny | CanMessage},
		{"before_tool", event.BeforeToolExecute, CanDeny | CanRewrite | CanMessage},
		{"after_tool", event.AfterToolExecute, CanDeny | CanContext | CanMessage},
		{"post_agent_turn", event.AgentStop, CanDeny | CanMessage},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "cwd",
		Transcript: "transcript_path",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "tool_call_id",
		ToolOutput: "tool_output_text",
		ToolError:  "tool_error",
	},
	// Tool names are the class names snake_cased (2.18.4); the built-in
	// skill text still says read_file and search_replace. MCP tools are
	// <server>_<tool>, which nothing tells from a built-in name, so they
	// are not split.
	Tools: Renames{
		{"bash", event.ToolShell},
		{"read", event.ToolFileRead},
		{"read_file", event.ToolFileRead},
		{"write_file", event.ToolFileWrite},
		{"edit", event.ToolFileEdit},
		{"search_replace", event.ToolFileEdit},
		{"grep", event.ToolSearch},
		{"web_search", event.ToolWebSearch},
		{"web_fetch", event.ToolWebFetch},
		{"task", event.ToolAgent},
	},
	Keep: []Renames{{
		{"parent_session_id", "parent_session_id"},
		{"tool_status", "tool_status"},
		{"duration_ms", "duration_ms"},
	}},
	Adjust:  adjustVibe,
	Encode:  encodeVibe,
	Timeout: 30 * time.Second, // what mistral-vibe_install.go writes
}

var vibeEvents = []string{"pre_tool", "post_tool", "post_agent", "before_tool", "after_tool", "post_agent_turn"}

// adjustVibe makes a failed tool call the canonical tool_use_failure, with
// tool_error as its error: Vibe has one after-tool event and says how the
// call ended in tool_status.
func adjustVibe(p Payload, spec *Spec, ev *event.Event) {
	if spec.Canonical != event.AfterToolExecute || ev.Tool == nil || p.Get("tool_status").Str != "failure" {
		return
	}
	ev.Name = event.ToolUseFailure
	ev.Tool.Output = nil
	if e := p.Get("tool_error"); e.Type == gjson.String {
		ev.Tool.Error = []byte(e.Raw)
	}
}

func encodeVibe(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	o := &wire.Object{}
	if v.Decision == decision.Deny && spec.Can.Has(CanDeny) {
		o.Str("decision", "deny")
		o.Str("reason", denyReason(v))
	}
	rewrite := v.UpdatedInput != nil && spec.Can.Has(CanRewrite) && v.Decision != decision.Deny
	context := v.Context != "" && spec.Can.Has(CanContext)
	if rewrite || context {
		o.Nest("hook_specific_output", func(h *wire.Object) {
			if rewrite {
				h.Raw("tool_input", v.UpdatedInput)
			}
			if context {
				h.Str("additional_context", v.Context)
			}
		})
	}
	if v.SystemMessage != "" && spec.Can.Has(CanMessage) {
		o.Str("system_message", v.SystemMessage)
	}
	// Nothing at all, not {}: an empty stdout is Vibe's pass-through.
	return JSONOrEmpty(o)
}
