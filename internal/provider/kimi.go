package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Kimi Code CLI (npm @moonshot-ai/kimi-code, binary kimi; not the Python
// Kimi CLI, whose hooks differ).
//
// Verified against Kimi Code 2.1.0 run here (payloads recorded from the real
// client, testdata/payloads/kimi-code/README.md), its bundled
// agent-core-v2 externalHooks code, and MoonshotAI/kimi-code at d723cc47
// (packages/agent-core-v2/src/features/externalHooks: internal/runHook.ts,
// internal/matchHooks.ts, internal/userPrompt.ts,
// agent/agentExternalHooksService.ts):
//   - stdin is the engine's event with top-level keys snake_cased
//     (matchHooks.ts toHookInputData); nested keys keep their casing. Every
//     payload has hook_event_name, session_id ("session_<uuid>"), cwd and
//     client_type ("kimi_code_cli"); there is no transcript_path or
//     permission_mode, and no project-dir variable in the environment;
//   - UserPromptSubmit.prompt is a ContentPart[] (issue #916, #917): the
//     core joins its text parts into data.prompt and keeps the parts;
//   - PostToolUse has tool_output, a string cut to 2000 characters; a failed
//     or blocked call is PostToolUseFailure with an error object
//     {code, message, retryable} and no tool_output;
//   - file tools name their file "path" (Read, Write, Edit, ReadMediaFile);
//     MCP tools are mcp__<server>__<tool>.
//
// Answers (runHook.ts resultFromExitCode, structuredOutput):
//   - only exit 2 (reason = trimmed stderr, stdout ignored) or exit 0 with
//     hookSpecificOutput.permissionDecision "deny" block; every other field
//     is ignored: no ask (measured: the tool runs), no rewrite (issue #345;
//     measured: the original command runs), no additionalContext, no
//     continue, and a legacy decision:"block" allows (measured);
//   - a block is honoured on PreToolUse (the reason is the tool's result),
//     UserPromptSubmit (no model request; `kimi -p` exits 1) and Stop (the
//     reason becomes a user message and the model is called once more; a
//     second Stop in the same turn is not run). hookshim blocks with exit 2
//     and the reason on stderr: that is the encoding measured on all three
//     events with 2.1.0; the JSON deny was measured on PreToolUse only;
//   - context reaches the model only on UserPromptSubmit, through the
//     top-level "message", as a user message placed before the prompt
//     (measured). ANY stdout of an allowed UserPromptSubmit is injected, even
//     "{}" (userPrompt.ts userPromptHookMessage; measured), so hookshim
//     prints nothing at all unless it carries context;
//   - every other event is observation only: Kimi Code does not read the
//     answer (SessionStart context is dropped, measured);
//   - continue:false on Stop asks for what happens anyway (the turn ends), so
//     it is expressed by printing nothing;
//   - hooks are fail-open: a timeout, a crash or any exit code other than 2
//     lets the call go ahead; PostToolUse hooks are killed as soon as the
//     model's next step ends (measured), so after-tool handlers get little
//     time.
var Kimi = &Provider{
	ID:       "kimi-code",
	Name:     "Kimi Code",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  kimiInstall,
	Signals: []Signal{
		Has("client_type", 3),
		Is("client_type", "kimi_code_cli", 7),
		Has("session_title", 3),
		Prefixed("session_id", "session_", 2),
		OneOf("hook_event_name", 4, kimiOnlyEvents...),
		{Weight: 3, desc: "prompt is content parts on UserPromptSubmit", test: func(p Payload) bool {
			return hookEventName(p) == "UserPromptSubmit" && p.Get("prompt").IsArray()
		}},
		{Weight: 2, desc: "tool_output is a string on PostToolUse", test: func(p Payload) bool {
			return hookEventName(p) == "PostToolUse" && p.Get("tool_output").Type == gjson.String
		}},
		Has("transcript_path", -3),
		Has("permission_mode", -3),
	},
	Events: []Spec{
		{"PreToolUse", event.BeforeToolExecute, CanDeny},
		{"PostToolUse", event.AfterToolExecute, 0},
		{"PostToolUseFailure", event.ToolUseFailure, 0},
		// Fired without waiting for an answer: the approval is the user's.
		{"PermissionRequest", event.PermissionRequest, 0},
		{"PermissionResult", "", 0},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext},
		{"UserPromptQueued", "", 0},
		{"TurnStarted", "", 0},
		{"Stop", event.AgentStop, CanDeny | CanStop},
		{"StopFailure", event.ErrorOccurred, 0},
		{"Interrupt", event.Interrupt, 0},
		{"SessionStart", event.SessionStart, 0},
		{"SessionEnd", event.SessionEnd, 0},
		{"SessionHeartbeat", "", 0},
		{"SubagentStart", event.SubagentStart, 0},
		{"SubagentStop", event.SubagentStop, 0},
		{"TaskStarted", "", 0},
		{"PreCompact", event.BeforeCompact, 0},
		{"PostCompact", event.AfterCompact, 0},
		{"Notification", event.Notification, 0},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "cwd",
		Model:      "model",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "tool_call_id",
		ToolOutput: "tool_output",
		ToolError:  "error",
		Prompt:     "prompt",
	},
	Tools: Renames{
		{"Bash", event.ToolShell},
		{"Read", event.ToolFileRead},
		{"ReadMediaFile", event.ToolFileRead},
		{"Write", event.ToolFileWrite},
		{"Edit", event.ToolFileEdit},
		{"Grep", event.ToolSearch},
		{"Glob", event.ToolFind},
		{"WebSearch", event.ToolWebSearch},
		{"FetchURL", event.ToolWebFetch},
		{"Agent", event.ToolAgent},
	},
	SplitMCP: splitDoubleUnderscore,
	Keep: []Renames{{
		{"source", "source"},
		{"reason", "reason"},
		{"trigger", "trigger"},
		{"stop_hook_active", "stop_hook_active"},
		{"client_type", "client_type"},
		{"session_title", "session_title"},
		{"profile", "profile"},
		{"is_steer", "is_steer"},
		{"agent_name", "agent_type"},
		{"response", "last_assistant_message"},
		{"error_type", "error_type"},
		{"error_message", "error_message"},
		{"turn_id", "turn_id"},
		{"token_count", "token_count"},
		{"estimated_token_count", "estimated_token_count"},
		{"notification_type", "notification_type"},
		{"title", "title"},
		{"body", "message"},
		{"severity", "severity"},
		{"sink", "sink"},
		{"source_kind", "source_kind"},
		{"source_id", "source_id"},
		{"agent_id", "agent_id"},
		{"action", "action"},
		{"display", "display"},
	}},
	Encode:  encodeKimi,
	Dialect: kimiDialect,
	Timeout: 30 * time.Second, // what kimi_install.go writes
}

// Events only Kimi Code sends.
var kimiOnlyEvents = []string{"UserPromptQueued", "TurnStarted", "SessionHeartbeat", "TaskStarted", "PermissionResult"}

func encodeKimi(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	if v.Stop && spec.Canonical == event.AgentStop {
		// The turn is ending: letting it end is the stop asked for.
		return Answer{}
	}
	if v.Decision == decision.Deny && spec.Can.Has(CanDeny) {
		return Answer{Stderr: denyReason(v) + "\n", Exit: 2}
	}
	if v.Context != "" && spec.Can.Has(CanContext) {
		o := &wire.Object{}
		o.Str("message", v.Context)
		return JSON(o)
	}
	return Answer{}
}

// kimiDialect is what a Kimi Code hook reads: Claude's event names with
// its own keys (tool_call_id, tool_output, no transcript), path for
// Write and Edit.
var kimiDialect = &Dialect{
	EventKey: "hook_event_name",
	Inputs: []InputKeys{
		{event.ToolFileWrite, Renames{{"path", "file_path"}}},
		{event.ToolFileEdit, Renames{{"path", "file_path"}}},
	},
	// Exit 2 blocks with stderr; exit 0 is JSON in the Claude dialect,
	// with "message" as context, and any other stdout on a prompt is
	// injected as context.
	Read: readKimi,
}

// readKimi reads a Kimi Code hook's answer (claudeReader).
func readKimi(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "Kimi Code", plain: []string{"UserPromptSubmit"}, contextKey: "message"}.read(spec, exit, stdout, stderr)
}
