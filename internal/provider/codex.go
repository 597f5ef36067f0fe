package provider

import (
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/tidwall/gjson"
)

// OpenAI Codex CLI.
//
// Verified against Codex 0.169.0 (the npm release run here, see
// shared/reference/real-clients.md; the hook input and output schemas it
// embeds, schema/generated/*.command.{input,output}.schema.json, and its
// output parser's rejection messages were read from the release binary),
// https://developers.openai.com/codex/hooks, and openai/codex
// codex-rs/hooks/src/{schema.rs,engine/output_parser.rs,events/*.rs}:
//   - 12 events: SessionStart, SessionEnd, SubagentStart, SubagentStop,
//     UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse,
//     PreCompact, PostCompact, Stop, Interrupt. SessionEnd has an input
//     schema and no output schema (its reason is always "other");
//     StopFailure exists in later source (events/stop_failure.rs) but not
//     in 0.169.0, and is kept observe-only for the versions that send it;
//   - every payload carries model and, except SessionStart and SessionEnd,
//     turn_id; transcript_path is a string or null; session ids are
//     version-7 UUIDs (ThreadId::new uses Uuid::now_v7);
//   - output is parsed into per-event structs that deny unknown fields; an
//     unknown field, an explicit "allow" without updatedInput, "ask",
//     continue:false / stopReason / suppressOutput on PreToolUse and
//     PermissionRequest, updatedInput / updatedPermissions / interrupt on
//     PermissionRequest, or suppressOutput:true on PostToolUse make the hook
//     "Failed" and the call goes ahead (0.169.0 parser messages; ask and
//     the rest measured). hookshim therefore emits the minimal exact shape,
//     never an allow on its own, and degrades ask;
//   - exit 2 needs non-empty stderr and ignores stdout: hookshim uses JSON;
//   - every shell tool reaches hooks as "Bash" with {command} (the model's
//     exec_command {cmd} is translated, measured); edits are "apply_patch"
//     whose command is the whole patch text; MCP tools are
//     mcp__<server>__<tool>;
//   - tool_response is the model-facing output as a JSON string (no exit
//     code); PostToolUse also fires for a command that failed, and there is
//     no failure event;
//   - additionalContext reaches the model on SessionStart, SubagentStart,
//     UserPromptSubmit, PreToolUse and PostToolUse (measured for all but
//     SubagentStart); Stop and SubagentStop have no hookSpecificOutput;
//   - a PermissionRequest hook that does not decide lets the normal
//     approval flow go on (events/permission_request.rs), which is "ask";
//   - Interrupt accepts only systemMessage.
var Codex = &Provider{
	ID:       "codex",
	Name:     "Codex",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  codexInstall,
	Signals: []Signal{
		{Weight: 4, desc: "turn_id on a tool, prompt or stop event", test: func(p Payload) bool {
			return p.Get("turn_id").Exists() && hookEventName(p) != "MessageDisplay"
		}},
		{Weight: 2, desc: "model on an event other than SessionStart", test: func(p Payload) bool {
			n := hookEventName(p)
			return p.Get("model").Type == gjson.String && n != "" && n != "SessionStart" && !p.Get("cursor_version").Exists()
		}},
		Is("tool_name", "apply_patch", 5),
		// Tool call ids are OpenAI call ids, call_…
		Prefixed("tool_use_id", "call_", 4),
		{Weight: 3, desc: "transcript_path is null", test: func(p Payload) bool {
			t := p.Get("transcript_path")
			return t.Exists() && t.Type == gjson.Null
		}},
		{Weight: 5, desc: `transcript_path is under "/.codex/sessions/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.codex/sessions/")
		}},
		{Weight: 3, desc: "session_id is a version-7 UUID", test: func(p Payload) bool {
			return uuidVersion(p.Get("session_id").Str) == '7'
		}},
		Is("hook_event_name", "Interrupt", 5),
		// What Codex never sends: a timestamp, Claude Code's ids and paths,
		// a random (version-4) session id.
		Has("timestamp", -3),
		Prefixed("tool_use_id", "toolu_", -4),
		Has("prompt_id", -3),
		{Weight: -4, desc: `transcript_path is under "/.claude/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.claude/")
		}},
		{Weight: -2, desc: "session_id is a version-4 UUID", test: func(p Payload) bool {
			return uuidVersion(p.Get("session_id").Str) == '4'
		}},
		EnvSet("CODEX_HOME", 1),
	},
	Events: []Spec{
		// SessionStart honours continue:false; SubagentStart ignores it
		// (events/session_start.rs).
		{"SessionStart", event.SessionStart, CanContext | CanStop | CanMessage},
		{"SessionEnd", event.SessionEnd, 0},
		{"SubagentStart", event.SubagentStart, CanContext | CanMessage},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext | CanStop | CanMessage},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanContext | CanRewrite | CanMessage},
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAsk | CanAllow | CanMessage},
		// decision "block" replaces the tool result with the reason;
		// continue:false stops ("PostToolUse hook stopped execution").
		{"PostToolUse", event.AfterToolExecute, CanDeny | CanContext | CanStop | CanMessage},
		// Compact events take the common fields only; continue:false stops
		// (events/compact.rs).
		{"PreCompact", event.BeforeCompact, CanStop | CanMessage},
		{"PostCompact", event.AfterCompact, CanStop | CanMessage},
		// decision "block" with a reason makes the reason the next prompt.
		{"SubagentStop", event.SubagentStop, CanDeny | CanStop | CanMessage},
		{"Stop", event.AgentStop, CanDeny | CanStop | CanMessage},
		{"StopFailure", event.ErrorOccurred, 0},
		{"Interrupt", event.Interrupt, CanMessage},
	},
	EventName: hookEventName,
	Fields:    claudeFields,
	Tools: Renames{
		{"Bash", event.ToolShell},
		{"apply_patch", event.ToolFileEdit},
	},
	SplitMCP: splitDoubleUnderscore,
	Keep:     []Renames{claudeKeep},
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		adjustClaudeDialect(p, spec, ev)
		if t := p.Get("turn_id"); t.Exists() {
			ev.Set("turn_id", []byte(t.Raw))
		}
	},
	Encode:  encodeCodex,
	Dialect: codexDialect,
	Timeout: 30 * time.Second, // what codex_install.go writes
}

// PatchPaths returns the files an apply_patch text touches, in order and
// once each: the targets of Add, Update and Delete, and the new name of a
// move (codex-rs/apply-patch's grammar, which Copilot, VS Code, Cline and
// OpenCode use too). The canonical event lists them all (file_paths).
func PatchPaths(patch string) []string {
	var paths []string
	seen := map[string]bool{}
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, marker := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: "} {
			if rest, ok := strings.CutPrefix(line, marker); ok {
				if path := strings.TrimSpace(rest); path != "" && !seen[path] {
					seen[path] = true
					paths = append(paths, path)
				}
			}
		}
	}
	return paths
}

// encodeCodex answers in the Claude dialect. Codex has no explicit allow:
// an allow is no opinion.
func encodeCodex(spec *Spec, v *decision.Verdict) Answer {
	return claudeStyle{}.encode(spec, v)
}

// codexDialect is what a Codex hook reads: the Claude dialect with
// turn_id; its answers are Claude's, but stdout is not read on exit 2,
// which needs a reason on stderr, and plain stdout is also context on
// SubagentStart (output_parser.rs).
var codexDialect = &Dialect{
	EventKey:  "hook_event_name",
	PatchTool: "apply_patch",
	PatchKey:  "command",
	Always:    Renames{{"permission_mode", "permission_mode"}, {"turn_id", "turn_id"}},
	Read:      readCodex,
}

// readCodex reads a Codex hook's answer (claudeReader).
func readCodex(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "Codex", plain: []string{"SessionStart", "UserPromptSubmit", "SubagentStart"}, exit2NeedsReason: true}.read(spec, exit, stdout, stderr)
}
