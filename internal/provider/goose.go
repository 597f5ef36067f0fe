package provider

import (
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Goose (Block), whose hooks follow the Open Plugins hooks specification.
//
// Checked against block/goose documentation/docs/guides/context-engineering/
// hooks.md at 0825b570; no goose binary could be run here (it ships as a
// native binary, not through a registry this project uses):
//   - hooks exist only inside plugins: <plugin>/hooks/hooks.json beside a
//     plugin.json, under ~/.agents/plugins/<name>/ or the project's
//     .agents/plugins/<name>/; Claude's groups, matcher an unanchored
//     regex ("*" is invalid and silently skips the rule), timeout in
//     seconds (default 30), commands run with sh -c and PLUGIN_ROOT set;
//   - stdin names the event under "event" (not hook_event_name), with
//     session_id and, where they apply, matcher_context, tool_name
//     (namespaced: developer__shell), tool_input, message (the prompt),
//     last_assistant_message (Stop), working_dir (tool events),
//     tool_call_id, and on PreToolUseResult decision, policy_evaluated,
//     blocked_by, reason, cause;
//   - only PreToolUse and Stop can block: exit 2 with the reason on stderr,
//     or stdout starting with "{" and decision "block" (reason in "reason")
//     whatever the exit code; a blocked Stop keeps the turn going (capped by
//     GOOSE_STOP_HOOK_BLOCK_CAP). Exit 0 with empty stdout or
//     {"decision":"allow"} allows; anything else (a log line, {}, invalid
//     UTF-8) is "no decision", fail-open unless on_failure is "block".
//     There is no context injection and no input rewrite.
//
// So hookshim answers a deny on PreToolUse and Stop with
// {"decision":"block","reason"} at exit 0 and everything else with nothing
// at all. BeforeReadFile, BeforeShellExecution, AfterShellExecution and
// PreToolUseResult fire beside the tool events for the same call and can
// decide nothing: they have no canonical event, so no handler runs twice.
//
// Detection: Crush also names its event under "event", but sends cwd and
// sets CRUSH=1; goose sends working_dir, matcher_context and namespaced
// tool names, and never cwd.
var Goose = &Provider{
	ID:     "goose",
	Name:   "Goose",
	ByHand: gooseByHand,
	Signals: []Signal{
		Has("matcher_context", 5),
		Prefixed("tool_name", "developer__", 4),
		OneOf("event", 6, "PreToolUseResult", "BeforeReadFile", "AfterFileEdit", "BeforeShellExecution", "AfterShellExecution"),
		{Weight: 3, desc: `"event" names the event, with no hook_event_name and no cwd`, test: func(p Payload) bool {
			return p.Get("event").Type == gjson.String && !p.Get("hook_event_name").Exists() && !p.Get("cwd").Exists()
		}},
		EnvSet("PLUGIN_ROOT", 2),
		EnvIs("CRUSH", "1", -5),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, 0},
		{"SessionEnd", event.SessionEnd, 0},
		{"UserPromptSubmit", event.BeforePrompt, 0},
		{"PreToolUse", event.BeforeToolExecute, CanDeny},
		{"PreToolUseResult", "", 0},
		{"PostToolUse", event.AfterToolExecute, 0},
		{"PostToolUseFailure", event.ToolUseFailure, 0},
		{"BeforeReadFile", "", 0},
		{"AfterFileEdit", event.FileChanged, 0},
		{"BeforeShellExecution", "", 0},
		{"AfterShellExecution", "", 0},
		{"Stop", event.AgentStop, CanDeny},
	},
	EventName: func(p Payload) string { return p.Get("event").Str },
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "working_dir",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "tool_call_id",
		Prompt:     "message",
	},
	Tools: Renames{
		{"developer__shell", event.ToolShell},
		{"developer__write", event.ToolFileWrite},
		{"developer__edit", event.ToolFileEdit},
		{"developer__text_editor", event.ToolFileEdit},
	},
	SplitMCP: gooseExtension,
	Keep: []Renames{{
		{"matcher_context", "matcher_context"},
		{"last_assistant_message", "last_assistant_message"},
		{"decision", "decision"},
		{"policy_evaluated", "policy_evaluated"},
		{"blocked_by", "blocked_by"},
		{"reason", "reason"},
		{"cause", "cause"},
	}},
	Adjust:  adjustGoose,
	Encode:  encodeGoose,
	Timeout: 30 * time.Second,
	// goose starts in the project and runs hooks there; PLUGIN_ROOT is the
	// plugin's folder, not the project.
}

// gooseExtension splits <extension>__<tool>: every goose tool is an
// extension's (MCP server's) tool; the developer tools hookshim knows by
// name are renamed before this is asked.
func gooseExtension(native string, _ Payload) *event.MCP {
	server, tool, ok := strings.Cut(native, "__")
	if !ok || server == "" || tool == "" {
		return nil
	}
	return &event.MCP{Server: server, Tool: tool}
}

func adjustGoose(p Payload, spec *Spec, ev *event.Event) {
	t := ev.Tool
	if t == nil {
		return
	}
	if t.Native == "developer__text_editor" {
		// The older editor tool does every file operation; its command
		// says which.
		switch gjson.GetBytes(t.Input, "command").Str {
		case "view":
			t.Name = event.ToolFileRead
		case "write":
			t.Name = event.ToolFileWrite
		}
	}
}

// encodeGoose blocks with the JSON goose reads whatever the exit code, and
// otherwise prints nothing: any other stdout is "no decision".
func encodeGoose(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil || v.Decision != decision.Deny || !spec.Can.Has(CanDeny) {
		return Answer{}
	}
	o := &wire.Object{}
	o.Str("decision", "block")
	o.Str("reason", v.Reason)
	return JSON(o)
}

// gooseByHand is what install prints: goose reads hooks only from a plugin
// (a folder with plugin.json and hooks/hooks.json), which install does not
// create.
const gooseByHandText = `goose reads hooks only from a plugin: create ~/.agents/plugins/hookshim/ (or .agents/plugins/hookshim/ in the project) with plugin.json
  {"name": "hookshim", "version": "1.0.0", "description": "hookshim"}
and hooks/hooks.json (no "*" matcher: goose skips it; "on_failure": "block" makes a failed PreToolUse deny)
  {"hooks": {
    "PreToolUse": [{"hooks": [{"type": "command", "command": "hookshim run --provider goose", "timeout": 30}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "hookshim run --provider goose", "timeout": 30}]}],
    "PostToolUse": [{"hooks": [{"type": "command", "command": "hookshim run --provider goose", "timeout": 30}]}],
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "hookshim run --provider goose", "timeout": 30}]}],
    "SessionStart": [{"hooks": [{"type": "command", "command": "hookshim run --provider goose", "timeout": 30}]}]
  }}`

// gooseByHand is gooseByHandText for the hookshim command line command.
func gooseByHand(command string) string {
	return strings.ReplaceAll(gooseByHandText, "hookshim run --provider goose", command)
}
