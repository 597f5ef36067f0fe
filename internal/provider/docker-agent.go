package provider

import (
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
)

// Docker Agent (docker-agent, formerly cagent).
//
// Checked against its source, docker/docker-agent at 0d76412a (2026-03-14,
// v1.32.3-19: pkg/hooks/{types,executor,config}.go,
// pkg/runtime/{tool_dispatch,runtime}.go), and for the events added since,
// docs.docker.com/ai/docker-agent/configuration/hooks and PR #2548. Not
// run: it ships as a release binary and with Docker Desktop.
//   - stdin is Claude's shape with snake_case event names: session_id, cwd,
//     hook_event_name (pre_tool_use...), tool_name, tool_use_id,
//     tool_input, tool_response, source, reason; no transcript_path;
//   - exit 2 blocks with stderr as the message; another non-zero exit is
//     ignored. Exit 0 with stdout starting with "{" is read in snake_case
//     only: continue (false blocks), stop_reason, system_message (a
//     warning shown to the user), decision "block" with reason, and
//     hook_specific_output {hook_event_name, permission_decision (allow,
//     deny, ask), permission_decision_reason, updated_input,
//     additional_context}. Claude's camelCase keys are ignored;
//   - updated_input is merged into the call's arguments, key by key: a
//     rewrite cannot remove an argument;
//   - at 0d76412a the runtime reads pre_tool_use (block, rewrite,
//     system_message) and post_tool_use's system_message; on_user_input's
//     answer is not used and session_start / session_end are not fired.
//     The docs add user_prompt_submit (block, additional_context),
//     permission_request (permission_decision allow or deny), stop,
//     notification, pre_compact and subagent_stop;
//   - hooks of one event run in parallel, and a block by any of them wins.
var DockerAgent = &Provider{
	ID:   "docker-agent",
	Name: "Docker Agent",
	// The hooks live in the agent's own YAML file, which the user names
	// when running it: there is no file hookshim could find (see
	// dockerAgentByHand).
	Install: nil,
	ByHand:  dockerAgentByHand,
	Signals: []Signal{
		OneOf("hook_event_name", 6, dockerAgentEvents...),
		// Kiro CLI names its stop event "stop" too, but sends no
		// session_id with it; Docker Agent always does.
		OneOf("hook_event_name", 1, "stop", "notification"),
		{Weight: 3, desc: "stop or notification with a session_id", test: func(p Payload) bool {
			switch hookEventName(p) {
			case "stop", "notification":
				return p.Get("session_id").Exists()
			}
			return false
		}},
		Has("transcript_path", -3),
	},
	Events: []Spec{
		{"pre_tool_use", event.BeforeToolExecute, CanDeny | CanRewrite | CanMessage},
		{"post_tool_use", event.AfterToolExecute, CanMessage},
		{"permission_request", event.PermissionRequest, CanDeny | CanAllow},
		{"user_prompt_submit", event.BeforePrompt, CanDeny | CanContext},
		{"on_user_input", "", 0},
		{"session_start", event.SessionStart, 0},
		{"session_end", event.SessionEnd, 0},
		{"stop", event.AgentStop, 0},
		{"notification", event.Notification, 0},
		{"pre_compact", event.BeforeCompact, 0},
		{"subagent_stop", event.SubagentStop, 0},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "cwd",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "tool_use_id",
		ToolOutput: "tool_response",
		Prompt:     "prompt",
	},
	// Built-in tool names (pkg/tools/builtin).
	Tools: Renames{
		{"shell", event.ToolShell},
		{"read_file", event.ToolFileRead},
		{"read_multiple_files", event.ToolFileRead},
		{"write_file", event.ToolFileWrite},
		{"edit_file", event.ToolFileEdit},
		{"fetch", event.ToolWebFetch},
		{"transfer_task", event.ToolAgent},
	},
	Keep: []Renames{{
		{"source", "source"},
		{"reason", "reason"},
	}},
	Encode:  encodeDockerAgent,
	Timeout: 60 * time.Second, // the tool's default: install writes nothing
}

var dockerAgentEvents = []string{
	"pre_tool_use", "post_tool_use", "permission_request", "user_prompt_submit", "on_user_input",
	"session_start", "session_end", "pre_compact", "subagent_stop",
}

func encodeDockerAgent(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	o := &wire.Object{}
	deny := v.Decision == decision.Deny && spec.Can.Has(CanDeny)
	reason := v.Reason
	if deny {
		reason = denyReason(v)
	}
	// A permission decision is read on the tool events; elsewhere a block
	// is decision "block".
	permission := spec.Canonical == event.BeforeToolExecute || spec.Canonical == event.PermissionRequest
	if deny && !permission {
		o.Str("decision", "block")
		o.Str("reason", reason)
	}
	allow := v.Decision == decision.Allow && spec.Can.Has(CanAllow)
	rewrite := v.UpdatedInput != nil && spec.Can.Has(CanRewrite) && !deny
	context := v.Context != "" && spec.Can.Has(CanContext) && !deny
	if (deny && permission) || allow || rewrite || context {
		o.Nest("hook_specific_output", func(h *wire.Object) {
			h.Str("hook_event_name", spec.Native)
			switch {
			case deny && permission:
				h.Str("permission_decision", "deny")
				h.Str("permission_decision_reason", reason)
			case allow:
				h.Str("permission_decision", "allow")
			}
			if rewrite {
				h.Raw("updated_input", v.UpdatedInput)
			}
			if context {
				h.Str("additional_context", v.Context)
			}
		})
	}
	if v.SystemMessage != "" && spec.Can.Has(CanMessage) {
		o.Str("system_message", v.SystemMessage)
	}
	return JSONOrEmpty(o)
}

// dockerAgentByHand is the YAML to add under an agent in the agent file
// (agents.<name>.hooks), for `hookshim install` to print: the file is the
// one the user runs (docker agent run <file>), so hookshim cannot know it.
// command is the hookshim command line; the event is in the payload.
func dockerAgentByHand(command string) string {
	q := "'" + strings.ReplaceAll(command, "'", "''") + "'"
	var b strings.Builder
	b.WriteString("add this by hand under your agent (agents.<name>) in the agent file you run (docker agent run FILE):\n")
	b.WriteString("    hooks:\n")
	for _, e := range []string{"pre_tool_use", "post_tool_use"} {
		b.WriteString("      " + e + ":\n")
		b.WriteString("        - matcher: \"*\"\n")
		b.WriteString("          hooks:\n")
		b.WriteString("            - type: command\n")
		b.WriteString("              command: " + q + "\n")
	}
	for _, e := range []string{"session_start", "session_end"} {
		b.WriteString("      " + e + ":\n")
		b.WriteString("        - type: command\n")
		b.WriteString("          command: " + q + "\n")
	}
	return b.String()
}
