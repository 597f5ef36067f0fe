package provider

import (
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/tidwall/gjson"
)

// OpenAI Codex CLI.
//
// Sources: https://developers.openai.com/codex/hooks, openai/codex
// codex-rs/hooks/src/{schema.rs,engine/output_parser.rs,events/*.rs}, and
// what Codex 0.169.0 did when run here (shared/reference/real-clients.md):
//   - output is validated against a strict per-event schema; an unknown
//     field, an explicit "allow" without updatedInput, or "ask" make the
//     hook "Failed" and the call goes ahead. hookshim therefore emits the
//     minimal exact shape, never an allow on its own, and degrades ask;
//   - PreToolUse rejects continue:false, stopReason and suppressOutput;
//   - exit 2 needs non-empty stderr and ignores stdout: hookshim uses JSON;
//   - every shell tool reaches hooks as "Bash" with {command}; edits are
//     "apply_patch" whose command is the whole patch text;
//   - tool_response is a JSON string; there is no failure event.
var Codex = &Provider{
	ID:   "codex",
	Name: "Codex",
	Signals: []Signal{
		When("turn_id on a tool, prompt or stop event", 4, func(p Payload) bool {
			return p.Get("turn_id").Exists() && hookEventName(p) != "MessageDisplay"
		}),
		When("model on an event other than SessionStart", 2, func(p Payload) bool {
			n := hookEventName(p)
			return p.Get("model").Type == gjson.String && n != "" && n != "SessionStart" && !p.Get("cursor_version").Exists()
		}),
		Is("tool_name", "apply_patch", 5),
		Prefixed("tool_use_id", "call_", 4),
		When("transcript_path is null", 3, func(p Payload) bool { return p.Get("transcript_path").Raw == "null" }),
		When(`transcript_path is under "/.codex/sessions/"`, 5, func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.codex/sessions/")
		}),
		Is("hook_event_name", "Interrupt", 5),
		Has("timestamp", -3),
		EnvSet("CODEX_HOME", 1),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, CanContext | CanStop | CanMessage},
		{"SubagentStart", event.SubagentStart, CanContext | CanMessage},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext | CanStop | CanMessage},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanContext | CanRewrite | CanMessage},
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAllow | CanMessage},
		{"PostToolUse", event.AfterToolExecute, CanDeny | CanContext | CanStop | CanMessage},
		{"PreCompact", event.BeforeCompact, CanStop | CanMessage},
		{"PostCompact", event.AfterCompact, CanMessage},
		{"SubagentStop", event.SubagentStop, CanDeny | CanStop | CanMessage},
		{"Stop", event.AgentStop, CanDeny | CanStop | CanMessage},
		{"StopFailure", event.ErrorOccurred, 0},
		{"Interrupt", event.Interrupt, CanMessage},
	},
	EventName: hookEventName,
	Fields:    claudeFields,
	Tools: map[string]string{
		"Bash":        event.ToolShell,
		"apply_patch": event.ToolFileEdit,
	},
	SplitMCP: splitDoubleUnderscore,
	Keep:     claudeKeep,
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		if ev.Tool != nil && ev.Tool.Native == "apply_patch" && ev.Tool.FilePath == "" {
			ev.Tool.FilePath = patchPath(p.Get("tool_input.command").Str)
		}
		if t := p.Get("turn_id"); t.Exists() {
			ev.Set("turn_id", []byte(t.Raw))
		}
	},
	Encode: claudeStyle{explicitAllow: false}.encode,
}

// patchPath returns the first file an apply_patch text touches, so that
// path policies see edits made through patches.
func patchPath(patch string) string {
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, marker := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
			if rest, ok := strings.CutPrefix(line, marker); ok {
				return strings.TrimSpace(rest)
			}
		}
	}
	return ""
}
