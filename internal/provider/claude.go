package provider

import "github.com/hookshim/hookshim/internal/event"

// Claude Code.
//
// Sources: https://code.claude.com/docs/en/hooks (v2.1.239) and what Claude
// Code 2.1.330 did when run here (shared/reference/real-clients.md):
//   - answers are exit 0 + JSON; hookshim never uses exit 2 here, because
//     JSON carries the reason and exit 2 would put hookshim's command line in
//     the model's view;
//   - permissionDecision belongs inside hookSpecificOutput, whose
//     hookEventName must equal the event (anthropics/claude-code#4669);
//   - "ask" in -p mode is answered as a denial with the reason to the model;
//   - plain stdout becomes context only on SessionStart and
//     UserPromptSubmit, so hookshim always answers JSON.
var Claude = &Provider{
	ID:   "claude-code",
	Name: "Claude Code",
	Signals: []Signal{
		Prefixed("tool_use_id", "toolu_", 5),
		Has("prompt_id", 2),
		Has("effort", 3),
		When(`transcript_path is under "/.claude/projects/"`, 5, func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.claude/projects/")
		}),
		OneOf("hook_event_name", 4, claudeOnlyEvents...),
		OneOf("hook_event_name", 1, claudeFamilyEvents...),
		OneOf("permission_mode", 1, "default", "plan", "acceptEdits", "auto", "dontAsk", "bypassPermissions"),
		Has("timestamp", -3),
		Has("turn_id", -2),
		EnvIs("CLAUDECODE", "1", 2),
		EnvSet("CLAUDE_CODE_SESSION_ID", 1),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, CanContext | CanMessage | CanStop},
		{"Setup", "", CanContext},
		{"InstructionsLoaded", event.InstructionsLoaded, 0},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext | CanStop | CanMessage},
		{"UserPromptExpansion", "", CanDeny | CanContext},
		{"MessageDisplay", "", 0},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanContext | CanRewrite | CanStop | CanMessage},
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAllow | CanRewrite | CanMessage},
		{"PermissionDenied", event.PermissionDenied, 0},
		{"PostToolUse", event.AfterToolExecute, CanDeny | CanContext | CanStop | CanMessage | CanSuppress},
		{"PostToolUseFailure", event.ToolUseFailure, CanContext | CanStop | CanMessage},
		{"PostToolBatch", "", CanDeny | CanContext | CanStop},
		{"Notification", event.Notification, 0},
		{"SubagentStart", event.SubagentStart, CanContext},
		{"SubagentStop", event.SubagentStop, CanDeny | CanStop | CanMessage},
		{"TaskCreated", event.TaskCreated, CanDeny | CanStop},
		{"TaskCompleted", event.TaskCompleted, CanStop},
		{"TeammateIdle", event.TeammateIdle, CanStop},
		{"Stop", event.AgentStop, CanDeny | CanStop | CanMessage},
		{"StopFailure", event.ErrorOccurred, 0},
		{"ConfigChange", event.ConfigChange, CanDeny | CanMessage},
		{"CwdChanged", event.CwdChanged, 0},
		{"DirectoryAdded", "", 0},
		{"FileChanged", event.FileChanged, 0},
		{"WorktreeRemove", "", 0},
		{"PreCompact", event.BeforeCompact, CanDeny},
		{"PostCompact", event.AfterCompact, 0},
		{"Elicitation", event.Elicitation, 0},
		{"ElicitationResult", event.ElicitationResult, 0},
		{"SessionEnd", event.SessionEnd, 0},
	},
	EventName: hookEventName,
	Fields:    claudeFields,
	Tools: map[string]string{
		"Bash":         event.ToolShell,
		"PowerShell":   event.ToolShell,
		"Read":         event.ToolFileRead,
		"Write":        event.ToolFileWrite,
		"Edit":         event.ToolFileEdit,
		"MultiEdit":    event.ToolFileEdit,
		"NotebookEdit": event.ToolFileEdit,
		"Grep":         event.ToolSearch,
		"Glob":         event.ToolFind,
		"WebSearch":    event.ToolWebSearch,
		"WebFetch":     event.ToolWebFetch,
		"Agent":        event.ToolAgent,
		"Task":         event.ToolAgent,
	},
	SplitMCP:      splitDoubleUnderscore,
	Keep:          claudeKeep,
	Encode:        claudeStyle{explicitAllow: true}.encode,
	ProjectDirEnv: []string{"CLAUDE_PROJECT_DIR"},
}

// Events only Claude Code sends (others reuse its common names).
var claudeOnlyEvents = []string{
	"Setup", "InstructionsLoaded", "UserPromptExpansion", "MessageDisplay", "PermissionDenied",
	"PostToolBatch", "TaskCreated", "TaskCompleted", "TeammateIdle", "StopFailure", "ConfigChange",
	"CwdChanged", "DirectoryAdded", "FileChanged", "WorktreeCreate", "WorktreeRemove", "PostCompact",
	"Elicitation", "ElicitationResult",
}

// Event names of the Claude dialect that several tools share.
var claudeFamilyEvents = []string{
	"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse",
	"PostToolUseFailure", "PermissionRequest", "Notification", "SubagentStart", "SubagentStop",
	"Stop", "PreCompact",
}
