package provider

import (
	"slices"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
)

// Qwen Code.
//
// Sources: QwenLM/qwen-code docs/users/features/hooks.md (@00d06c80), the
// hook code bundled in @qwen-code/qwen-code 0.24.4 (hookEventHandler
// createBaseInput, coreToolScheduler, hooks/types), and what Qwen Code 0.24.4
// did when run here (shared/reference/real-clients.md; the payloads in
// testdata/payloads/qwen-code were recorded from it, and a deny and prompt
// context from hookshim were checked against it), which wins:
//   - Claude Code's event names and answer shape, Gemini CLI's common stdin:
//     session_id, transcript_path (~/.qwen/projects/<project>/chats/<id>.jsonl),
//     cwd, hook_event_name, timestamp (ISO 8601, "Z"), permission_mode
//     ("default", "plan", "auto_edit", "auto", "yolo"), and prompt_id
//     and agent_id where known. Tool events add tool_name (Qwen's tool ids:
//     run_shell_command, read_file, write_file, edit…), tool_input,
//     tool_use_id ("toolu_<ms>_<random>", not Claude's "toolu_01…") and
//     tool_call_id (the model API's id). The hook environment has
//     QWEN_PROJECT_DIR, and also CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR;
//   - PreToolUse: permissionDecision deny blocks with the reason as the
//     tool's result; ask puts the call to the user in the TUI and is denied
//     (reason to the model) in headless runs (measured). PreToolUse fires
//     after Qwen's own permission check, so allow approves nothing, and
//     updatedInput is IGNORED (measured: the original command ran), so
//     there is no rewrite; additionalContext on PreToolUse is NOT delivered
//     (measured) although the docs list it;
//   - PostToolUse: additionalContext is appended to the tool result
//     (measured); continue:false stops; decision:"block" is not read;
//   - UserPromptSubmit: decision "block"/"deny" blocks, additionalContext is
//     added as a tagged text part (measured). It also fires before model
//     calls that carry a tool result, then with prompt "" (measured): a
//     before_prompt handler sees those continuations too;
//   - SessionStart context goes into the system prompt (measured);
//   - Stop/SubagentStop: decision "block" makes the agent go on with the
//     reason; continue:false stops;
//   - PermissionRequest: hookSpecificOutput.decision {behavior, message,
//     updatedInput} (applied on allow, coreToolScheduler);
//   - exit 2 blocks with stderr; any other failure, timeout or invalid JSON
//     lets the call go ahead (measured); hookshim answers exit 0 + JSON.
//     systemMessage is only logged in debug mode, so no message channel.
//
// Detection: the timestamp tells Qwen from Claude Code (which never sends
// one), Claude's event names tell it from Gemini CLI (which has its own), and
// the transcript path and tool ids confirm it.
var Qwen = &Provider{
	ID:       "qwen-code",
	Name:     "Qwen Code",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  qwenInstall,
	Signals: []Signal{
		// Gemini CLI sends a timestamp but never permission_mode; Claude Code
		// and Copilot's Claude-style payloads lack one or the other.
		{Weight: 5, desc: "ISO timestamp and permission_mode on a Claude-named event", test: func(p Payload) bool {
			return isISOTime(p.Get("timestamp").Str) && p.Get("permission_mode").Exists() &&
				slices.Contains(qwenClaudeNamed, hookEventName(p))
		}},
		{Weight: 5, desc: `transcript_path is under "/.qwen/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.qwen/")
		}},
		{Weight: 6, desc: `tool_use_id is "toolu_<milliseconds>_…"`, test: func(p Payload) bool {
			return qwenToolUseID(p.Get("tool_use_id").Str)
		}},
		OneOf("permission_mode", 3, "auto_edit", "yolo"),
		OneOf("hook_event_name", 6, "SessionDelete", "TodoCreated", "TodoCompleted"),
		OneOf("tool_name", 2, "run_shell_command", "read_file", "write_file", "edit", "grep_search",
			"list_directory", "exec", "todo_write", "save_memory"),
		Has("submitted_prompt", 3),
		EnvSet("QWEN_PROJECT_DIR", 3),
		EnvSet("QWEN_CODE_PROJECT_DIR", 1),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, CanContext},
		{"SessionEnd", event.SessionEnd, 0},
		{"SessionDelete", "", 0},
		{"InstructionsLoaded", event.InstructionsLoaded, 0},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext},
		{"UserPromptExpansion", event.UserPromptExpansion, CanDeny | CanContext},
		{"MessageDisplay", "", 0},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAsk},
		{"PostToolUse", event.AfterToolExecute, CanContext | CanStop},
		{"PostToolUseFailure", event.ToolUseFailure, CanContext},
		{"PostToolBatch", "", 0},
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAllow | CanRewrite},
		{"PermissionDenied", event.PermissionDenied, 0},
		{"Notification", event.Notification, 0},
		{"SubagentStart", event.SubagentStart, CanContext},
		{"SubagentStop", event.SubagentStop, CanDeny | CanStop},
		{"Stop", event.AgentStop, CanDeny | CanStop},
		{"StopFailure", event.ErrorOccurred, 0},
		{"PreCompact", event.BeforeCompact, 0},
		{"PostCompact", event.AfterCompact, 0},
		// Todo items are not tasks: no canonical event.
		{"TodoCreated", "", 0},
		{"TodoCompleted", "", 0},
	},
	EventName: hookEventName,
	Fields:    claudeFields,
	Tools: Renames{
		{"run_shell_command", event.ToolShell},
		{"exec", event.ToolShell},
		{"read_file", event.ToolFileRead},
		{"write_file", event.ToolFileWrite},
		{"edit", event.ToolFileEdit},
		{"notebook_edit", event.ToolFileEdit},
		{"grep_search", event.ToolSearch},
		{"glob", event.ToolFind},
		{"web_search", event.ToolWebSearch},
		{"web_fetch", event.ToolWebFetch},
		{"agent", event.ToolAgent},
	},
	SplitMCP: splitDoubleUnderscore,
	Keep:     []Renames{claudeKeep, qwenKeep},
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		// After every tool result Qwen Code 0.24.4 fires UserPromptSubmit
		// again with an empty prompt (measured): no user submitted
		// anything, so prompt policies do not run again and their context
		// is not injected twice.
		if spec.Canonical == event.BeforePrompt && ev.Prompt != nil && *ev.Prompt == "" {
			ev.Name = ""
		}
	},
	Encode:        encodeQwen,
	Dialect:       qwenDialect,
	Timeout:       60 * time.Second, // command hook default (docs: 60000 ms)
	ProjectDirEnv: []string{"QWEN_PROJECT_DIR"},
}

// encodeQwen answers in the Claude dialect, explicit allows included.
func encodeQwen(spec *Spec, v *decision.Verdict) Answer {
	return claudeStyle{explicitAllow: true}.encode(spec, v)
}

// Claude event names Qwen Code sends.
var qwenClaudeNamed = []string{
	"SessionStart", "SessionEnd", "InstructionsLoaded", "UserPromptSubmit",
	"UserPromptExpansion", "MessageDisplay", "PreToolUse", "PostToolUse",
	"PostToolUseFailure", "PostToolBatch", "PermissionRequest",
	"PermissionDenied", "Notification", "SubagentStart", "SubagentStop",
	"Stop", "StopFailure", "PreCompact", "PostCompact",
}

// qwenKeep are Qwen's own per-event fields (beside Claude's).
var qwenKeep = Renames{
	{"submitted_prompt", "submitted_prompt"},
	{"deleted_session_id", "deleted_session_id"},
	{"message_id", "message_id"},
	{"displayed_text", "displayed_text"},
	{"is_final", "is_final"},
	{"context_usage", "context_usage"},
	{"context_limit", "context_limit"},
	{"input_tokens", "input_tokens"},
	{"todo_id", "todo_id"},
	{"todo_content", "todo_content"},
	{"todo_status", "todo_status"},
	{"previous_status", "previous_status"},
	{"phase", "phase"},
}

// qwenToolUseID reports whether id is Qwen's generated tool use id,
// toolu_<Date.now()>_<random> (Claude Code's are toolu_01…, no underscore).
func qwenToolUseID(id string) bool {
	rest, ok := strings.CutPrefix(id, "toolu_")
	if !ok {
		return false
	}
	ms, _, ok := strings.Cut(rest, "_")
	if !ok || len(ms) < 10 {
		return false
	}
	for _, c := range ms {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// qwenDialect is what a Qwen Code hook reads: Claude's keys with Gemini
// CLI's tool names and an ISO timestamp.
var qwenDialect = &Dialect{
	EventKey: "hook_event_name",
	Always:   Renames{{"permission_mode", "permission_mode"}, {"timestamp", FromNow}},
	Response: ResponseGemini, // Qwen Code sends Gemini CLI's {llmContent, returnDisplay}
	Read:     readQwen,
}

// readQwen reads a Qwen Code hook's answer (claudeReader).
func readQwen(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "Qwen Code", plain: []string{"SessionStart", "UserPromptSubmit"}}.read(spec, exit, stdout, stderr)
}
