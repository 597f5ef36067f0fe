package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Letta Code.
//
// Sources: letta-ai/letta-code at 1f4d3e3: src/hooks/{types,executor,
// index,loader}.ts and the callers of each run*Hooks function
// (src/tools/manager.ts, src/permissions/checker.ts,
// src/cli/app/use-submit-handler.ts, use-conversation-loop.ts,
// src/tools/impl/task.ts), and since 0.32.18 runs here against a local
// backend (make e2e: PreToolUse and PostToolUse fire in -p, deny, allow and
// the rewrite measured; payloads in testdata/payloads/letta-code/*-real.json).
// What -p does not reach is from the source only:
//   - stdin: event_type (not hook_event_name) and working_directory (not
//     cwd); the declared session_id is never set (src/hooks/index.ts builds
//     every input without it). Tool events add tool_name, tool_input,
//     tool_call_id, agent_id; PostToolUse tool_result {status, output};
//     PostToolUseFailure error_message, error_type; PermissionRequest
//     permission {type, scope}; UserPromptSubmit prompt, is_command;
//     Stop stop_reason, assistant_message, user_message; the hook's
//     environment has LETTA_HOOK_EVENT and LETTA_WORKING_DIR;
//   - only exit 2 blocks, with stderr as the reason; there is no JSON
//     deny. Exit 2 blocks PreToolUse (the reason is the tool's error),
//     UserPromptSubmit, Stop (the agent goes on with the reason),
//     PreCompact (/compact fails) and PermissionRequest (denied). Any
//     other non-zero exit is a hook error and changes nothing;
//   - JSON is read in two places only: PreToolUse
//     hookSpecificOutput.updatedInput (a rewrite, without approving), and
//     additionalContext (top level or in hookSpecificOutput) on
//     PostToolUse and PostToolUseFailure. Plain stdout at exit 0 is context
//     on UserPromptSubmit and SessionStart;
//   - PermissionRequest treats ANY exit 0 as "allow": a hook that answers
//     "no opinion" approves every request. Install does not register it.
//   - SubagentStop, Notification and SessionEnd are not read (SubagentStop
//     hooks are fire-and-forget).
//
// Detection: event_type with working_directory is Letta's shape alone
// (OpenHands sends event_type with working_dir).
var Letta = &Provider{
	ID:       "letta-code",
	Name:     "Letta Code",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  lettaInstall,
	Signals: []Signal{
		{Weight: 8, desc: "event_type and working_directory", test: func(p Payload) bool {
			return p.Get("event_type").Type == gjson.String && p.Get("working_directory").Type == gjson.String
		}},
		Has("tool_call_id", 1),
		Has("hook_event_name", -4),
		// OpenHands also sends event_type, with working_dir and metadata.
		Has("working_dir", -4),
		EnvSet("LETTA_HOOK_EVENT", 3),
		EnvSet("LETTA_WORKING_DIR", 1),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, CanContext},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanRewrite},
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAllow},
		{"PostToolUse", event.AfterToolExecute, CanContext},
		{"PostToolUseFailure", event.ToolUseFailure, CanContext},
		{"Notification", event.Notification, 0},
		{"Stop", event.AgentStop, CanDeny},
		{"SubagentStop", event.SubagentStop, 0},
		{"PreCompact", event.BeforeCompact, CanDeny},
		{"SessionEnd", event.SessionEnd, 0},
	},
	EventName: func(p Payload) string { return p.Get("event_type").Str },
	Fields: Fields{
		// The type has an optional session_id that no caller fills in;
		// conversation_id is on prompt and session events.
		SessionID:  "conversation_id",
		Cwd:        "working_directory",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "tool_call_id",
		ToolOutput: "tool_result",
		ToolError:  "error_message",
		Prompt:     "prompt",
	},
	// Letta Code ships Claude-, Codex- and Gemini-style tool sets; the
	// hooks see the names of the one in use.
	Tools: Renames{
		{"Bash", event.ToolShell},
		{"Shell", event.ToolShell},
		{"shell", event.ToolShell},
		{"ShellCommand", event.ToolShell},
		{"shell_command", event.ToolShell},
		{"exec_command", event.ToolShell},
		{"run_shell_command", event.ToolShell},
		{"RunShellCommand", event.ToolShell},
		{"Read", event.ToolFileRead},
		{"read_file", event.ToolFileRead},
		{"Write", event.ToolFileWrite},
		{"write_file", event.ToolFileWrite},
		{"Edit", event.ToolFileEdit},
		{"MultiEdit", event.ToolFileEdit},
		{"replace", event.ToolFileEdit},
		{"ApplyPatch", event.ToolFileEdit},
		{"apply_patch", event.ToolFileEdit},
		{"Grep", event.ToolSearch},
		{"search_file_content", event.ToolSearch},
		{"Glob", event.ToolFind},
		{"glob", event.ToolFind},
		{"Task", event.ToolAgent},
		{"Agent", event.ToolAgent},
	},
	Keep: []Renames{{
		{"agent_id", "agent_id"},
		{"agent_name", "agent_name"},
		{"error_type", "error_type"},
		{"permission", "permission"},
		{"session_permissions", "session_permissions"},
		{"is_command", "is_command"},
		{"message", "message"},
		{"level", "level"},
		{"stop_reason", "stop_reason"},
		{"message_count", "message_count"},
		{"tool_call_count", "tool_call_count"},
		{"assistant_message", "last_assistant_message"},
		{"user_message", "user_message"},
		{"preceding_reasoning", "preceding_reasoning"},
		{"preceding_assistant_message", "preceding_assistant_message"},
		{"subagent_type", "agent_type"},
		{"subagent_id", "subagent_id"},
		{"success", "success"},
		{"error", "error"},
		{"context_length", "context_length"},
		{"max_context_length", "max_context_length"},
		{"is_new_session", "is_new_session"},
		{"duration_ms", "duration_ms"},
	}},
	Encode:     encodeLetta,
	TextStdout: true,
	Timeout:    30 * time.Second, // what letta_install.go writes
	// LETTA_WORKING_DIR is the session's folder, not necessarily the
	// project root: the root is found from it like from any cwd.
}

// encodeLetta answers in exit codes, plain text and the two JSON fields
// Letta Code reads.
func encodeLetta(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	if v.Decision == decision.Deny && spec.Can.Has(CanDeny) {
		return Answer{Stderr: oneLineEnd(v.Reason), Exit: 2}
	}
	switch spec.Canonical {
	case event.BeforeToolExecute:
		if v.UpdatedInput != nil {
			o := &wire.Object{}
			o.Nest("hookSpecificOutput", func(h *wire.Object) {
				h.Str("hookEventName", spec.Native)
				h.Raw("updatedInput", v.UpdatedInput)
			})
			return JSON(o)
		}
	case event.AfterToolExecute, event.ToolUseFailure:
		if v.Context != "" {
			o := &wire.Object{}
			o.Str("additionalContext", v.Context)
			return JSON(o)
		}
	case event.BeforePrompt, event.SessionStart:
		if v.Context != "" {
			return Answer{Stdout: []byte(oneLineEnd(v.Context))}
		}
	}
	return Answer{}
}
