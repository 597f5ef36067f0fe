package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
)

// Qoder CLI (npm @qoder-ai/qodercli, binary qodercli).
//
// Not run: the CLI answers "Not logged in" before any hook fires without a
// Qoder account, even with a custom model configured. Read from the 1.1.52
// bundle (bundle/qodercli.js: the hook input builders createBaseInput and
// fire*Event, the hook output schema and its normalization, the hook
// environment) and its hook skill (bundle/builtin/hook-config/SKILL.md),
// and docs.qoder.com/cli/hooks:
//   - a copy of Claude Code's contract: hook_event_name with 27 of Claude's
//     event names, session_id, transcript_path
//     (~/.qoder/projects/<slug>/<id>.jsonl), cwd, permission_mode, model,
//     agent_id/agent_type inside sub-agents; tool events add tool_use_id,
//     tool_name (Claude's tool names), tool_input, tool_response, and
//     mcp_context / original_request_name where they apply; Notification
//     adds details;
//   - the environment has QODER_PROJECT_DIR and also CLAUDE_PROJECT_DIR,
//     QODER_HOOK_SOURCE and QODER_HOOK_VERSION;
//   - the output schema is Claude's per-event hookSpecificOutput union
//     (hookEventName required, else the output is rejected): PreToolUse
//     permissionDecision allow/deny/ask (and "defer"), updatedInput,
//     additionalContext; PermissionRequest decision {behavior, updatedInput |
//     message}; additionalContext on SessionStart, Setup, UserPromptSubmit,
//     PostToolUse(Failure), SubagentStart. The top-level decision takes
//     approve/block/allow/deny, block read as deny, with reason; continue and
//     stopReason as Claude's;
//   - exit 2 denies with stderr as the reason; other codes go on.
//
// So hookshim answers in Claude Code's dialect, with Claude Code's
// capabilities per event (those Qoder's schema has, measured on Claude Code).
var Qoder = &Provider{
	ID:      "qoder",
	Name:    "Qoder CLI",
	Install: qoderInstall,
	Signals: []Signal{
		// The one payload mark: everything else is Claude Code's. A
		// transcript outweighs Claude's Anthropic tool call ids, which a
		// Qoder session on an Anthropic model may carry too.
		{Weight: 10, desc: `transcript_path is under "/.qoder/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.qoder/")
		}},
		EnvSet("QODER_PROJECT_DIR", 4),
		EnvSet("QODER_HOOK_SOURCE", 2),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, CanContext | CanStop | CanMessage},
		{"Setup", "", CanContext | CanMessage},
		{"InstructionsLoaded", event.InstructionsLoaded, 0},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext | CanStop | CanMessage},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanContext | CanRewrite | CanStop | CanMessage},
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAsk | CanAllow | CanRewrite | CanMessage},
		{"PermissionDenied", event.PermissionDenied, 0},
		{"PostToolUse", event.AfterToolExecute, CanDeny | CanContext | CanStop | CanMessage},
		{"PostToolUseFailure", event.ToolUseFailure, CanContext | CanStop | CanMessage},
		{"Notification", event.Notification, 0},
		{"SubagentStart", event.SubagentStart, CanContext | CanMessage},
		{"SubagentStop", event.SubagentStop, CanDeny | CanStop | CanMessage},
		{"TaskCreated", event.TaskCreated, CanDeny | CanMessage},
		{"TaskCompleted", event.TaskCompleted, CanDeny | CanStop | CanMessage},
		// The skill: decision "deny" (or continue:false) keeps the teammate
		// working, with the reason as its next turn.
		{"TeammateIdle", event.TeammateIdle, CanDeny | CanStop | CanMessage},
		{"Stop", event.AgentStop, CanDeny | CanStop | CanMessage},
		{"StopFailure", event.ErrorOccurred, 0},
		{"ConfigChange", event.ConfigChange, CanDeny},
		{"CwdChanged", event.CwdChanged, CanMessage},
		{"FileChanged", event.FileChanged, CanMessage},
		// As in Claude Code, the hook must create the worktree itself.
		{"WorktreeCreate", "", 0},
		{"WorktreeRemove", "", 0},
		{"PreCompact", event.BeforeCompact, CanDeny},
		{"PostCompact", event.AfterCompact, 0},
		{"Elicitation", event.Elicitation, CanDeny},
		{"ElicitationResult", event.ElicitationResult, CanDeny},
		{"SessionEnd", event.SessionEnd, 0},
	},
	EventName: hookEventName,
	Fields:    claudeFields,
	Tools: Renames{
		{"Bash", event.ToolShell},
		{"Read", event.ToolFileRead},
		{"Write", event.ToolFileWrite},
		{"Edit", event.ToolFileEdit},
		{"NotebookEdit", event.ToolFileEdit},
		{"Grep", event.ToolSearch},
		{"Glob", event.ToolFind},
		{"WebSearch", event.ToolWebSearch},
		{"WebFetch", event.ToolWebFetch},
		{"Agent", event.ToolAgent},
		{"Task", event.ToolAgent},
	},
	SplitMCP: splitDoubleUnderscore,
	Keep: []Renames{claudeKeep, {
		{"details", "details"},
		{"mcp_context", "mcp_context"},
		{"original_request_name", "original_request_name"},
		{"image_urls", "image_urls"},
	}},
	Adjust:  adjustClaudeDialect,
	Dialect: qoderDialect,
	// Qoder reads decision "deny" on TeammateIdle and TaskCompleted, so
	// no exit 2 is needed there (unlike Claude Code).
	Encode: func(spec *Spec, v *decision.Verdict) Answer {
		return claudeStyle{explicitAllow: true}.encode(spec, v)
	},
	ProjectDirEnv: []string{"QODER_PROJECT_DIR"},
	Timeout:       30 * time.Second, // what qoder_install.go writes
}

// qoderDialect is what a Qoder CLI hook reads: Claude's payload and
// answers, the Claude look-alike's dialect (dialect_claude.go).
var qoderDialect = &Dialect{
	EventKey: "hook_event_name",
	Always:   lookalikeAlways,
	Read:     readQoder,
}

// readQoder reads a Qoder CLI hook's answer (claudeReader).
func readQoder(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "Qoder CLI", plain: lookalikePlain}.read(spec, exit, stdout, stderr)
}
