package provider

import (
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Hermes Agent (Nous Research), through its shell hooks.
//
// Checked against NousResearch/hermes-agent agent/shell_hooks.py at
// 00067189; no Hermes was run here (PyPI is out of reach):
//   - hooks live under hooks: in the profile's config.yaml
//     (~/.hermes/config.yaml; HERMES_HOME moves it), a mapping of Hermes
//     event names to lists of {command, matcher?, timeout?, fail_closed?};
//     timeout in seconds (default 60, clamped to 300); matcher a full-match
//     regex on the tool name, tool events only;
//   - every (event, command) pair needs consent once: approved at a TTY
//     prompt, or with --accept-hooks, HERMES_ACCEPT_HOOKS=1 or
//     hooks_auto_accept: true; unapproved hooks are skipped with a log line;
//   - the command is split into argv and run without a shell;
//   - stdin is {hook_event_name, tool_name, tool_input, session_id, cwd,
//     profile, extra}, tool_input null when the arguments are not an
//     object, extra every other keyword of the call site;
//   - pre_tool_call is the only blocking event: exit 2 (reason from a block
//     JSON, else stderr), or on stdout {"action":"block","message"} (or
//     Claude's legacy {"decision":"block","reason"}) and
//     {"action":"modify","args"} replacing the tool's arguments. Claude's
//     hookSpecificOutput is not read;
//   - pre_verify takes {"action":"continue","message"} to keep the agent
//     working; every other event's stdout is read only for {"context"},
//     which the docs name as the injection point on pre_llm_call;
//   - errors and timeouts fail open unless fail_closed.
//
// Detection: Hermes' own event names (pre_tool_call, pre_llm_call,
// pre_verify, on_session_start...) with profile and extra.
var Hermes = &Provider{
	ID:     "hermes",
	Name:   "Hermes Agent",
	ByHand: hermesByHand,
	Signals: []Signal{
		OneOf("hook_event_name", 8, hermesEvents...),
		// Snake_case Claude-style names another tool may send as well
		// (Docker Agent's sub-agent events): weak alone; Hermes' own
		// extra object and profile name outweigh Docker Agent's event
		// name for those.
		OneOf("hook_event_name", 2, "subagent_start", "subagent_stop"),
		Object("extra", 3),
		Has("profile", 3),
	},
	Events: []Spec{
		{"pre_tool_call", event.BeforeToolExecute, CanDeny | CanRewrite},
		{"post_tool_call", event.AfterToolExecute, 0},
		{"pre_llm_call", event.BeforePrompt, CanContext},
		{"post_llm_call", event.AfterAgentResponse, 0},
		{"pre_verify", event.AgentStop, CanDeny},
		{"on_session_start", event.SessionStart, 0},
		{"on_session_end", event.SessionEnd, 0},
		{"subagent_start", event.SubagentStart, 0},
		{"subagent_stop", event.SubagentStop, 0},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "cwd",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "extra.tool_call_id",
		// pre_llm_call passes the user's text as user_message (what
		// Hermes plugins read from it), which lands under extra.
		Prompt: "extra.user_message",
	},
	Tools: Renames{
		{"terminal", event.ToolShell},
		{"read_file", event.ToolFileRead},
		{"write_file", event.ToolFileWrite},
		{"patch", event.ToolFileEdit},
		{"search_files", event.ToolSearch},
		{"web_search", event.ToolWebSearch},
		{"web_extract", event.ToolWebFetch},
		{"delegate_task", event.ToolAgent},
	},
	SplitMCP: splitDoubleUnderscore,
	Keep: []Renames{{
		{"profile", "profile"},
		{"extra", "extra"},
	}},
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		// Every payload carries tool_name and tool_input, null outside the
		// tool events: no tool there.
		if !spec.Canonical.IsTool() && p.Get("tool_name").Type == gjson.Null {
			ev.Tool = nil
		}
	},
	Encode:  encodeHermes,
	Timeout: 30 * time.Second,
}

// hermesEvents are the shell-hook events of VALID_HOOKS that no other tool
// is known to send.
var hermesEvents = []string{
	"pre_tool_call", "post_tool_call", "pre_llm_call", "post_llm_call", "pre_verify",
	"on_session_start", "on_session_end", "on_session_finalize", "on_session_reset",
	"pre_approval_request", "post_approval_response",
	"transform_tool_result", "transform_terminal_output", "transform_llm_output",
	"pre_api_request", "post_api_request", "api_request_error",
}

// encodeHermes writes Hermes' own directives; nothing at all otherwise.
func encodeHermes(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	o := &wire.Object{}
	switch spec.Native {
	case "pre_tool_call":
		switch {
		case v.Decision == decision.Deny:
			o.Str("action", "block")
			o.Str("message", v.Reason)
		case v.UpdatedInput != nil:
			o.Str("action", "modify")
			o.Raw("args", v.UpdatedInput)
		}
	case "pre_verify":
		if v.Decision == decision.Deny {
			// A continue without a message is ignored (_parse_pre_verify).
			msg := v.Reason
			if msg == "" {
				msg = "blocked by policy"
			}
			o.Str("action", "continue")
			o.Str("message", msg)
		}
	default:
		if v.Context != "" && spec.Can.Has(CanContext) {
			o.Str("context", v.Context)
		}
	}
	return JSONOrEmpty(o)
}

// hermesByHand is what install prints: the hooks: block goes into a YAML
// file hookshim does not edit, and each command needs Hermes' consent.
const hermesByHandText = `Hermes reads shell hooks from hooks: in ~/.hermes/config.yaml (the profile's config.yaml under HERMES_HOME); add there, merging with any hooks: block you have:
  hooks:
    pre_tool_call:
      - command: "hookshim run --provider hermes"
        timeout: 30
    pre_llm_call:
      - command: "hookshim run --provider hermes"
        timeout: 30
    pre_verify:
      - command: "hookshim run --provider hermes"
        timeout: 30
then approve each command once: at Hermes' prompt in a terminal, or with hermes --accept-hooks, HERMES_ACCEPT_HOOKS=1 or hooks_auto_accept: true (without that, a run without a terminal skips them); the command runs without a shell, so give hookshim's full path if it is not in Hermes' PATH`

// hermesByHand is hermesByHandText for the hookshim command line command.
func hermesByHand(command string) string {
	return strings.ReplaceAll(hermesByHandText, "hookshim run --provider hermes", command)
}
