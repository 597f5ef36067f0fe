package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/tidwall/gjson"
)

// Claude Code.
//
// Verified against Claude Code 2.1.330 (the npm release run here, see
// shared/reference/real-clients.md; its bundled hook input and output
// schemas were read from the release binary), the hooks reference
// https://code.claude.com/docs/en/hooks as published for v2.1.240 and the
// CHANGELOG up to 2.1.240. Where they differ the 2.1.330 release wins.
//
//   - 34 events; PreSkillShellCommand is 2.1.332's (measured, see the
//     Events table). 2.1.330 adds PreModelSwitch and PostModelSwitch, which
//     the v2.1.240 docs do not list yet. Setup, UserPromptExpansion,
//     PostToolBatch and WorktreeRemove have canonical names of their own
//     (Claude Code's alone); PreModelSwitch, PostModelSwitch,
//     DirectoryAdded, WorktreeCreate and MessageDisplay have none, so no
//     handler listens there and hookshim answers "no opinion". install
//     leaves MessageDisplay out anyway: it fires for every message shown.
//   - Answers are exit 0 + JSON. Claude reads JSON on every exit code, but
//     exit 2 blocks regardless of the JSON and puts the hook's command line
//     in the model's view (measured), so hookshim uses exit 2 only where
//     JSON cannot block: TaskCompleted and TeammateIdle ("Exit code 2 ...
//     fed back to the model", hooks reference, decision control table).
//   - permissionDecision belongs inside hookSpecificOutput, whose
//     hookEventName must equal the event (anthropics/claude-code#4669;
//     2.1.330 validates hookSpecificOutput against a per-event union).
//   - PreToolUse "ask" is honoured: a prompt interactively, a denial with
//     the reason to the model in -p (measured on 2.1.330).
//   - additionalContext reaches the model on SessionStart, Setup,
//     SubagentStart, UserPromptSubmit, UserPromptExpansion, PreToolUse,
//     PostToolUse, PostToolUseFailure and PostToolBatch (measured on
//     SessionStart, UserPromptSubmit, PreToolUse and PostToolUse; the rest
//     from the docs' "Add context for Claude"). On Stop and SubagentStop it
//     makes the agent go on ("non-error feedback that continues the
//     conversation"), so context there is not offered: an agent_stop
//     handler's context must not keep the agent running.
//   - suppressOutput "has no effect" (hooks reference, v2.1.239+), so it is
//     never claimed; systemMessage and continue are discarded on
//     Notification, InstructionsLoaded, ConfigChange, PreCompact,
//     PostCompact, WorktreeRemove, SessionEnd, Elicitation(Result),
//     MessageDisplay and StopFailure (each event's section).
//   - Plain stdout becomes context only on SessionStart, UserPromptSubmit
//     and UserPromptExpansion, so hookshim always answers JSON.
//   - WorktreeCreate replaces git's worktree creation: the hook must create
//     it and print its path, and any other answer fails the creation.
//     hookshim cannot take part; install never registers it.
var Claude = &Provider{
	ID:       "claude-code",
	Name:     "Claude Code",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  claudeInstall,
	Signals: []Signal{
		// Tool call ids are Anthropic API ids, toolu_01…
		Prefixed("tool_use_id", "toolu_", 5),
		// prompt_id since v2.1.196; effort on tool-context events.
		Has("prompt_id", 2),
		Has("effort", 3),
		{Weight: 5, desc: `transcript_path is under "/.claude/projects/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.claude/projects/")
		}},
		OneOf("hook_event_name", 4, claudeOnlyEvents...),
		OneOf("hook_event_name", 1, claudeFamilyEvents...),
		OneOf("permission_mode", 1, "default", "plan", "acceptEdits", "auto", "dontAsk", "bypassPermissions"),
		// What Claude Code never sends: a timestamp (Gemini CLI, Qwen Code),
		// turn_id outside MessageDisplay and a transcript path that is null or
		// under ~/.codex (Codex), a version-7 session id (Codex thread ids;
		// Claude's are random version-4 UUIDs).
		Has("timestamp", -3),
		Has("turn_id", -2),
		{Weight: -4, desc: `transcript_path is null or under "/.codex/"`, test: func(p Payload) bool {
			t := p.Get("transcript_path")
			return t.Exists() && t.Type == gjson.Null || containsPath(t.Str, "/.codex/")
		}},
		{Weight: -2, desc: "session_id is a version-7 UUID", test: func(p Payload) bool {
			return uuidVersion(p.Get("session_id").Str) == '7'
		}},
		EnvIs("CLAUDECODE", "1", 2),
		EnvSet("CLAUDE_CODE_SESSION_ID", 1),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, CanContext | CanStop | CanMessage},
		// Setup fires only for --init, --init-only and --maintenance.
		{"Setup", event.Setup, CanContext | CanMessage},
		{"InstructionsLoaded", event.InstructionsLoaded, 0},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext | CanStop | CanMessage},
		{"UserPromptExpansion", event.UserPromptExpansion, CanDeny | CanContext | CanStop | CanMessage},
		{"MessageDisplay", "", 0},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAsk | CanDefer | CanAllow | CanContext | CanRewrite | CanStop | CanMessage},
		// PreSkillShellCommand (2.1.332) is the inline !`cmd` of a skill or
		// slash command, which never passes PreToolUse: a shell call like
		// any other for the policies. Its tool_use_id names no tool call
		// ("<id>:inner:preamble-<n>", measured). deny, ask and defer keep it from
		// running (measured); allow adds nothing; any updatedInput also
		// keeps it from running, so a rewrite is never sent and the
		// default degradation blocks it instead.
		{"PreSkillShellCommand", event.BeforeToolExecute, CanDeny | CanAsk | CanDefer},
		// PermissionRequest: no decision lets the permission dialog show (and
		// a headless session deny), which is what "ask" means here.
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAsk | CanAllow | CanRewrite | CanMessage},
		// PermissionDenied fires in auto mode only; its one output,
		// retry:true, is not a canonical decision.
		{"PermissionDenied", event.PermissionDenied, 0},
		// decision "block" adds the reason next to the tool result.
		{"PostToolUse", event.AfterToolExecute, CanDeny | CanContext | CanStop | CanMessage},
		{"PostToolUseFailure", event.ToolUseFailure, CanContext | CanStop | CanMessage},
		{"PostToolBatch", event.AfterToolBatch, CanDeny | CanContext | CanStop | CanMessage},
		{"Notification", event.Notification, 0},
		{"SubagentStart", event.SubagentStart, CanContext | CanMessage},
		{"SubagentStop", event.SubagentStop, CanDeny | CanStop | CanMessage},
		// TaskCreated ignores continue:false.
		{"TaskCreated", event.TaskCreated, CanDeny | CanMessage},
		// TaskCompleted and TeammateIdle block through exit 2 only.
		{"TaskCompleted", event.TaskCompleted, CanDeny | CanStop | CanMessage},
		{"TeammateIdle", event.TeammateIdle, CanDeny | CanStop | CanMessage},
		{"Stop", event.AgentStop, CanDeny | CanStop | CanMessage},
		{"StopFailure", event.ErrorOccurred, 0},
		// A blocked change is silent: the reason is never shown.
		{"ConfigChange", event.ConfigChange, CanDeny},
		// systemMessage shows as a terminal notification.
		{"CwdChanged", event.CwdChanged, CanMessage},
		{"DirectoryAdded", "", 0},
		{"FileChanged", event.FileChanged, CanMessage},
		{"WorktreeCreate", "", 0},
		{"WorktreeRemove", event.WorktreeRemove, 0},
		{"PreCompact", event.BeforeCompact, CanDeny},
		{"PostCompact", event.AfterCompact, 0},
		// decision "block" declines the elicitation (2.1.330 turns it into
		// a blocking error, as exit 2 does).
		{"Elicitation", event.Elicitation, CanDeny},
		{"ElicitationResult", event.ElicitationResult, CanDeny},
		{"SessionEnd", event.SessionEnd, 0},
		{"PreModelSwitch", "", 0},
		{"PostModelSwitch", "", 0},
	},
	EventName: hookEventName,
	Fields:    claudeFields,
	// Tool names from the hooks reference and the 2.1.330 tool schemas
	// (sdk-tools.d.ts). Task is Agent's old name, MultiEdit an old tool
	// that older versions still send.
	Tools: Renames{
		{"Bash", event.ToolShell},
		{"PowerShell", event.ToolShell},
		{"Read", event.ToolFileRead},
		{"Write", event.ToolFileWrite},
		{"Edit", event.ToolFileEdit},
		{"MultiEdit", event.ToolFileEdit},
		{"NotebookEdit", event.ToolFileEdit},
		{"Grep", event.ToolSearch},
		{"Glob", event.ToolFind},
		{"WebSearch", event.ToolWebSearch},
		{"WebFetch", event.ToolWebFetch},
		{"Agent", event.ToolAgent},
		{"Task", event.ToolAgent},
	},
	SplitMCP:      splitDoubleUnderscore,
	Keep:          []Renames{claudeKeep},
	Adjust:        adjustClaudeDialect,
	Encode:        encodeClaude,
	Dialect:       claudeDialect,
	ProjectDirEnv: []string{"CLAUDE_PROJECT_DIR"},
	Timeout:       30 * time.Second, // what claude_install.go writes
}

// claudeExitBlock are the events on which only exit 2 blocks: the hooks
// reference gives TaskCompleted and TeammateIdle "exit code or continue:
// false" and no JSON decision.
var claudeExitBlock = []string{"TaskCompleted", "TeammateIdle"}

func encodeClaude(spec *Spec, v *decision.Verdict) Answer {
	return claudeStyle{explicitAllow: true, exitBlock: claudeExitBlock}.encode(spec, v)
}

// Events only Claude Code sends (others reuse its common names). Codex
// also sends PostCompact, and its source has StopFailure: those two are
// family events.
var claudeOnlyEvents = []string{
	"Setup", "InstructionsLoaded", "UserPromptExpansion", "MessageDisplay", "PermissionDenied",
	"PreSkillShellCommand",
	"PostToolBatch", "TaskCreated", "TaskCompleted", "TeammateIdle", "ConfigChange",
	"CwdChanged", "DirectoryAdded", "FileChanged", "WorktreeCreate", "WorktreeRemove",
	"Elicitation", "ElicitationResult", "PreModelSwitch", "PostModelSwitch",
}

// Event names of the Claude dialect that several tools share.
var claudeFamilyEvents = []string{
	"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse",
	"PostToolUseFailure", "PermissionRequest", "Notification", "SubagentStart", "SubagentStop",
	"Stop", "StopFailure", "PreCompact", "PostCompact",
}
