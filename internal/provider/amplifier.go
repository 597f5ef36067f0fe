package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Microsoft Amplifier, through its hook-shell module.
//
// Amplifier's own hooks are in-process Python handlers returning a
// HookResult; external commands run only through the hook-shell module,
// which speaks a Claude-Code-like dialect. Verified against
// microsoft/amplifier-module-hook-shell at f9ebb16a (2026-01-13:
// amplifier_module_hook_shell/{bridge,translator,executor}.py),
// microsoft/amplifier-core at 7a471437 (2026-07-13) and
// microsoft/amplifier-module-loop-streaming at e5438b4c (2026-08-03):
//   - .amplifier/hooks/hooks.json (and one folder deep) registers commands
//     under Claude event names; the module maps tool:pre, tool:post,
//     prompt:submit, session:start (and session:resume, with trigger
//     "resume"), session:end, prompt:complete, context:pre_compact,
//     approval:required and user:notification onto PreToolUse,
//     PostToolUse, UserPromptSubmit, SessionStart, SessionEnd, Stop,
//     PreCompact, PermissionRequest and Notification;
//   - the payload names no event and carries no cwd, so every entry is
//     registered with --event <ClaudeName>. Tool events are
//     {tool_name, tool_input, [tool_result], timestamp}, the prompt event
//     {prompt, timestamp}, session events {session_id, trigger|…,
//     timestamp}; the rest pass Amplifier's event data through. timestamp is
//     UTC ISO 8601 ending in "Z";
//   - translator.py reads data["name"] and data["input"], but the
//     orchestrators emit tool_name and tool_input, so with current
//     orchestrators tool events arrive as {"tool_name": "", "tool_input":
//     {}} and PostToolUse without a result. hookshim tolerates that: the
//     call is normalized with an empty tool, which only "*"/unmatched
//     handlers see; a policy that matches a tool name cannot see these
//     calls until the module is fixed;
//   - the environment has AMPLIFIER_PROJECT_DIR (the directory Amplifier
//     started in), AMPLIFIER_HOOKS_DIR, AMPLIFIER_SESSION_ID (the first
//     event's session, fixed for the process) and CLAUDE_PROJECT_DIR; the
//     command runs in the project directory;
//   - the answer: exit 2 is a deny with stderr as reason, on any event; else
//     stdout, if it is JSON, is read whatever the exit code:
//     decision:"block" (+reason) is a deny, contextInjection an
//     inject_context, systemMessage a user_message; hookSpecificOutput,
//     continue, stopReason and decision:"approve" are ignored, and a JSON
//     value that is not an object makes the handler fail (skipped). A
//     timeout (30 s by default) is exit 1: continue.
//
// How HookResult actions map onto the canonical decision:
//   - continue       ← no opinion and allow (a shell hook has no explicit
//     allow; "approve" is a no-op);
//   - deny           ← deny, as {"decision":"block","reason":…}; on tool:pre
//     the model reads "Denied by hook: <reason>", on prompt:submit the turn
//     ends with "Operation denied: <reason>". tool:post ignores it, so there
//     a deny becomes context;
//   - inject_context ← context, as {"contextInjection":…} (system role,
//     persistent); honoured on tool:pre, tool:post and prompt:submit. A deny
//     and context cannot travel together: the deny wins;
//   - user_message   ← system_message, as {"systemMessage":…}, shown through
//     the display system wherever the orchestrator processes the result;
//   - modify         ← nothing: newContent replaces the event data, which
//     no orchestrator reads, so a rewrite degrades (blocks by default);
//   - ask_user       ← nothing: a shell hook cannot ask, so ask degrades
//     (denies by default).
//   - continue:false has no channel; where a deny exists it becomes one.
//
// session:start and session:end results are discarded by Amplifier, and
// loop-streaming (the default orchestrator) emits neither prompt:complete
// nor approval:required nor context:pre_compact, so Stop, PermissionRequest
// and PreCompact are observed only.
var Amplifier = &Provider{
	ID:      "amplifier",
	Name:    "Amplifier",
	Install: amplifierInstall,
	Signals: []Signal{
		{Weight: 4, desc: `no event name in the payload, and timestamp is an ISO string ending in "Z"`, test: func(p Payload) bool {
			ts := p.Get("timestamp")
			return ts.Type == gjson.String && isISOTime(ts.Str) && ts.Str[len(ts.Str)-1] == 'Z' && amplifierNoEventName(p)
		}},
		{Weight: 2, desc: `tool_result without an event name`, test: func(p Payload) bool {
			return p.Get("tool_result").Exists() && amplifierNoEventName(p)
		}},
		{Weight: 2, desc: `trigger is "startup" or "resume" without an event name`, test: func(p Payload) bool {
			t := p.Get("trigger").Str
			return (t == "startup" || t == "resume") && amplifierNoEventName(p)
		}},
		EnvSet("AMPLIFIER_HOOKS_DIR", 3),
		EnvSet("AMPLIFIER_SESSION_ID", 2),
	},
	Events: []Spec{
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanContext | CanMessage},
		{"PostToolUse", event.AfterToolExecute, CanContext | CanMessage},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext | CanMessage},
		{"SessionStart", event.SessionStart, 0},
		{"SessionEnd", event.SessionEnd, 0},
		{"Stop", event.AgentStop, 0},
		{"PreCompact", event.BeforeCompact, 0},
		{"PermissionRequest", event.PermissionRequest, 0},
		{"Notification", event.Notification, 0},
	},
	// The payload never names its event: install writes --event. Without
	// it, the shapes translator.py builds name four events; Stop,
	// PreCompact, PermissionRequest, Notification and SessionEnd pass
	// Amplifier's data through ({session_id, parent_id, ...}) and only
	// --event tells them apart. Tool and prompt payloads never carry
	// session_id or parent_id; every passed-through payload has both (the
	// registry's default fields, amplifier-core session.rs).
	EventName: func(Payload) string { return "" },
	Shapes: []Shape{
		{Event: "PreToolUse", Has: []string{"tool_name", "tool_input"}, Not: []string{"tool_result", "session_id", "parent_id"}},
		{Event: "PostToolUse", Has: []string{"tool_name", "tool_input", "tool_result"}, Not: []string{"session_id", "parent_id"}},
		{Event: "UserPromptSubmit", Has: []string{"prompt"}, Not: []string{"tool_name", "session_id", "parent_id"}},
		{Event: "SessionStart", Has: []string{"session_id", "trigger"}, Not: []string{"parent_id"}},
	},
	Fields: Fields{
		SessionID:  "session_id",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolOutput: "tool_result",
		Prompt:     "prompt",
	},
	Tools: Renames{
		// Amplifier's foundation tool modules (tool-bash, tool-filesystem,
		// tool-search, tool-web, tool-task).
		{"bash", event.ToolShell},
		{"read_file", event.ToolFileRead},
		{"write_file", event.ToolFileWrite},
		{"edit_file", event.ToolFileEdit},
		{"grep", event.ToolSearch},
		{"glob", event.ToolFind},
		{"web_search", event.ToolWebSearch},
		{"web_fetch", event.ToolWebFetch},
		{"task", event.ToolAgent},
	},
	Keep: []Renames{{
		{"trigger", "source"},
		{"parent_id", "parent_session_id"},
	}},
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		if ev.SessionID == "" && p.Env != nil {
			// Tool and prompt payloads drop the session; the executor
			// exports the one it was created with.
			ev.SessionID = p.Env("AMPLIFIER_SESSION_ID")
		}
	},
	Encode:        encodeAmplifier,
	Timeout:       30 * time.Second, // hooks.json "timeout" default (bridge.py)
	ProjectDirEnv: []string{"AMPLIFIER_PROJECT_DIR", "CLAUDE_PROJECT_DIR"},
}

// amplifierNoEventName: none of the event-name fields other tools send.
func amplifierNoEventName(p Payload) bool {
	for _, k := range []string{"hook_event_name", "hookEventName", "agent_action_name", "hookName"} {
		if p.Get(k).Exists() {
			return false
		}
	}
	return true
}

// encodeAmplifier writes the JSON hook-shell's translator reads.
func encodeAmplifier(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	o := &wire.Object{}
	switch {
	case v.Decision == decision.Deny:
		o.Str("decision", "block")
		o.Str("reason", v.Reason)
	case v.Context != "":
		o.Str("contextInjection", v.Context)
	}
	if v.SystemMessage != "" {
		o.Str("systemMessage", v.SystemMessage)
	}
	return JSONOrEmpty(o)
}
