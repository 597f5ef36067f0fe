package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/tidwall/gjson"
)

// Tencent CodeBuddy Code (npm @tencent-ai/codebuddy-code, binary codebuddy;
// the same build ships inside @tencent-ai/agent-sdk as cli/).
//
// Verified against CodeBuddy Code 2.117.0 run here headless (`codebuddy -p`
// with CODEBUDDY_API_KEY and CODEBUDDY_BASE_URL pointing at a mock model on
// 127.0.0.1; payloads in testdata/payloads/codebuddy), its hook code
// (cli/dist/codebuddy-headless.js: the hook input builders, parseHookOutput,
// executePermissionRequestHooks) and its bundled docs
// (cli/dist/web-ui/docs/en/cli/hooks.md); the client wins where they differ:
//   - Claude Code's layout and dialect: hook_event_name (27 events, Claude's
//     names), session_id, transcript_path
//     (~/.codebuddy/projects/<slug>/<id>.jsonl), cwd, permission_mode, plus
//     keys of its own on every payload: client ("CLI"), version (the
//     client's), model; tool events add generation_id, agent_type ("cli")
//     and call_id beside tool_use_id (the model API's call id, the same
//     value). Notification comes before the session: no session_id and an
//     empty transcript_path; SessionStart has no cwd. PostToolUse's
//     tool_response is an object ({exitCode, signal, interrupted, …});
//   - the hook environment has CODEBUDDY_PROJECT_DIR and also
//     CLAUDE_PROJECT_DIR, so the latter proves nothing;
//   - PreToolUse: hookSpecificOutput.permissionDecision deny blocks with the
//     reason to the model (measured), ask shows the approval dialog, allow
//     approves. A rewrite is hookSpecificOutput.updatedInput (measured); the
//     modifiedInput the docs name is never applied. additionalContext there
//     is dropped (measured);
//   - PostToolUse, UserPromptSubmit and SessionStart take
//     additionalContext (measured). SessionStart fires after
//     UserPromptSubmit in -p, yet its context (hookSpecificOutput or plain
//     stdout) reaches the first model request as a system reminder (5 of 5
//     runs of 2.117.0 on a quiet machine, 10 of 13 on a busy one: in the
//     other 3 the client's log shows it never took the answer's context,
//     though hookshim's answer carried it); a prompt is dropped by
//     decision "block" (read as "not allowed", though the docs call the
//     field deprecated);
//   - PermissionRequest: hookSpecificOutput.decision.behavior allow or deny
//     is read, nothing else (so no rewrite there);
//   - Stop: neither continue:false, decision "block" nor exit 2 made the
//     agent take another turn in -p (measured), and the docs give
//     continue:false the opposite of Claude's meaning there, so Stop is
//     observed only; the other events' answers are not read;
//   - exit 2 blocks with its message taken from stdout first; a hook that
//     times out BLOCKS the tool ("Hook timed out after N ms", measured), so
//     hookshim must answer well inside the registered timeout.
var CodeBuddy = &Provider{
	ID:       "codebuddy",
	Name:     "CodeBuddy Code",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  codeBuddyInstall,
	Signals: []Signal{
		// Every payload of 2.117.0 carries both; no other Claude look-alike
		// sends a "client" key.
		{Weight: 8, desc: `"client" and "version" keys (the client's name and version)`, test: func(p Payload) bool {
			return p.Get("client").Type == gjson.String && p.Get("version").Type == gjson.String
		}},
		{Weight: 6, desc: `transcript_path is under "/.codebuddy/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.codebuddy/")
		}},
		Has("call_id", 2),
		EnvSet("CODEBUDDY_PROJECT_DIR", 4),
		EnvSet("CODEBUDDY_SERVICE_PROXY_URL", 1),
	},
	Events: []Spec{
		// In -p SessionStart fires after UserPromptSubmit, but before the
		// first model request, which carries its context (measured).
		{"SessionStart", event.SessionStart, CanContext},
		{"Setup", "", 0},
		{"InstructionsLoaded", event.InstructionsLoaded, 0},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanRewrite},
		// No decision object lets the approval dialog show: that is "ask".
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAsk | CanAllow},
		{"PermissionDenied", event.PermissionDenied, 0},
		{"PostToolUse", event.AfterToolExecute, CanContext},
		{"PostToolUseFailure", event.ToolUseFailure, 0},
		{"Notification", event.Notification, 0},
		{"SubagentStart", event.SubagentStart, 0},
		{"SubagentStop", event.SubagentStop, 0},
		{"TaskCreated", event.TaskCreated, 0},
		{"TaskCompleted", event.TaskCompleted, 0},
		{"TeammateIdle", event.TeammateIdle, 0},
		{"Stop", event.AgentStop, 0},
		{"StopFailure", event.ErrorOccurred, 0},
		{"ConfigChange", event.ConfigChange, 0},
		{"CwdChanged", event.CwdChanged, 0},
		{"FileChanged", event.FileChanged, 0},
		// As in Claude Code, the hook must create the worktree itself.
		{"WorktreeCreate", "", 0},
		{"WorktreeRemove", "", 0},
		{"PreCompact", event.BeforeCompact, 0},
		{"PostCompact", event.AfterCompact, 0},
		{"Elicitation", event.Elicitation, 0},
		{"ElicitationResult", event.ElicitationResult, 0},
		{"SessionEnd", event.SessionEnd, 0},
	},
	EventName: hookEventName,
	Fields:    claudeFields,
	Tools: Renames{
		{"Bash", event.ToolShell},
		{"Read", event.ToolFileRead},
		{"Write", event.ToolFileWrite},
		{"Edit", event.ToolFileEdit},
		{"MultiEdit", event.ToolFileEdit},
		{"NotebookEdit", event.ToolFileEdit},
		{"Grep", event.ToolSearch},
		{"Glob", event.ToolFind},
		{"WebSearch", event.ToolWebSearch},
		{"WebFetch", event.ToolWebFetch},
		{"Task", event.ToolAgent},
		{"Agent", event.ToolAgent},
	},
	SplitMCP: splitDoubleUnderscore,
	Keep:     []Renames{claudeKeep, codeBuddyKeep},
	Adjust:   adjustClaudeDialect,
	Dialect:  codebuddyDialect,
	Encode: func(spec *Spec, v *decision.Verdict) Answer {
		return claudeStyle{explicitAllow: true}.encode(spec, v)
	},
	ProjectDirEnv: []string{"CODEBUDDY_PROJECT_DIR"},
	VersionAt:     "version",
	Timeout:       30 * time.Second, // what codebuddy_install.go writes
}

// codeBuddyKeep are CodeBuddy's own per-event fields (beside Claude's).
var codeBuddyKeep = Renames{
	{"client", "client"},
	{"version", "client_version"},
	{"generation_id", "generation_id"},
	{"tool_error_code", "tool_error_code"},
	{"tool_error_name", "tool_error_name"},
	{"worktree_path", "worktree_path"},
	{"name", "name"},
}

// codebuddyDialect is what a CodeBuddy Code hook reads: Claude's
// payload and answers, the Claude look-alike's dialect (dialect_claude.go).
var codebuddyDialect = &Dialect{
	EventKey: "hook_event_name",
	Always:   lookalikeAlways,
	Read:     readCodeBuddy,
}

// readCodeBuddy reads a CodeBuddy Code hook's answer (claudeReader).
func readCodeBuddy(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "CodeBuddy Code", plain: lookalikePlain}.read(spec, exit, stdout, stderr)
}
