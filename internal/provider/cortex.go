package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
)

// Snowflake Cortex Code (the CLI cortex, Cortex Code Desktop and the
// Cortex Agent SDK, which runs the CLI).
//
// Not run here: the CLI is installed by Snowflake's own installer and
// needs a Snowflake connection. From docs.snowflake.com
// user-guide/cortex-code/settings and LIMITEDACCESS/cortex-code-desktop/
// hooks:
//   - Claude Code's hook contract: events PreToolUse (can block),
//     PostToolUse, PermissionRequest (auto-allow or auto-deny),
//     SessionStart, UserPromptSubmit (can block), Stop (can force the
//     agent to go on), Notification, PreCompact, SessionEnd, SubagentStop
//     and Setup (can block); hooks may also add context and rewrite a
//     tool's input;
//   - user hooks in ~/.snowflake/cortex/settings.json ("hooks") and
//     ~/.snowflake/cortex/hooks.json, Claude's groups, timeout in seconds.
//
// The stdin and the answer fields are not spelt out beyond "the same as
// Claude Code's", so hookshim reads Claude's keys and answers in Claude's
// dialect, claiming only what the docs list per event; a denial of
// PreToolUse is said both ways Claude-shaped tools read it (exit 2 with
// the reason, and permissionDecision).
//
// Detection: the payload is Claude Code's. Cortex keeps its sessions under
// ~/.snowflake/cortex/conversations/, so a transcript there names it;
// otherwise pass --provider (install does).
var CortexCode = &Provider{
	ID:       "cortex-code",
	Name:     "Snowflake Cortex Code",
	Verified: "from docs (https://docs.snowflake.com/en/user-guide/cortex-code/settings, https://docs.snowflake.com/LIMITEDACCESS/cortex-code-desktop/hooks); not run here",
	Install:  cortexInstall,
	Signals: []Signal{
		{Weight: 10, desc: `transcript_path is under "/.snowflake/cortex/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.snowflake/cortex/")
		}},
	},
	Events: []Spec{
		{"Setup", "", 0},
		{"SessionStart", event.SessionStart, CanContext},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanRewrite},
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAllow},
		{"PostToolUse", event.AfterToolExecute, CanContext},
		{"Notification", event.Notification, 0},
		{"SubagentStop", event.SubagentStop, 0},
		{"Stop", event.AgentStop, CanDeny},
		{"PreCompact", event.BeforeCompact, 0},
		{"SessionEnd", event.SessionEnd, 0},
	},
	EventName: hookEventName,
	Fields:    claudeFields,
	Tools: Renames{
		{"Bash", event.ToolShell},
		{"Read", event.ToolFileRead},
		{"Write", event.ToolFileWrite},
		{"Edit", event.ToolFileEdit},
		{"Grep", event.ToolSearch},
		{"Glob", event.ToolFind},
		{"WebSearch", event.ToolWebSearch},
		{"WebFetch", event.ToolWebFetch},
		{"Task", event.ToolAgent},
	},
	SplitMCP: splitDoubleUnderscore,
	Keep:     []Renames{claudeKeep},
	Adjust:   adjustClaudeDialect,
	Dialect:  cortexDialect,
	Encode: func(spec *Spec, v *decision.Verdict) Answer {
		return claudeStyle{explicitAllow: true, exitBlock: []string{"PreToolUse"}}.encode(spec, v)
	},
	Timeout: 30 * time.Second, // what cortex_install.go writes
}

// cortexDialect is what a Cortex Code hook reads: Claude Code's payload
// and answers, as the docs say, the Claude look-alike's dialect
// (dialect_claude.go) that CodeBuddy Code and Qoder CLI share. What Claude
// Code added late (JSON read on any exit code) is not assumed: a non-zero
// exit other than 2 is a failed hook, and plain stdout is context only
// where Claude's is. Its events and tools are its own: the docs list
// eleven events with what each can do, where CodeBuddy's (measured) and
// Qoder's (read from its code) are Claude's 27 with capabilities of their
// own, and its tools are Claude's core names, with Task for a subagent,
// where CodeBuddy's and Qoder's add NotebookEdit and Agent (CodeBuddy's
// MultiEdit too, and Qoder names Agent first).
var cortexDialect = &Dialect{
	EventKey: "hook_event_name",
	Always:   lookalikeAlways,
	Read:     readCortex,
}

// readCortex reads a Cortex Code hook's answer (claudeReader).
func readCortex(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "Cortex Code", plain: lookalikePlain}.read(spec, exit, stdout, stderr)
}
