package provider

import (
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// OpenHands (CLI, local GUI and Cloud share the SDK's hook runtime).
//
// Checked against its source, OpenHands/software-agent-sdk at 611629e6
// (SDK 1.43.1: openhands-sdk/openhands/sdk/hooks/{types,config,executor,
// manager,conversation_hooks}.py). Not run: OpenHands installs only from
// PyPI. Its config copies Claude Code's; the wire format does not:
//   - stdin is one model for every event: event_type (PreToolUse,
//     PostToolUse, UserPromptSubmit, Stop, SessionStart, SessionEnd),
//     tool_name, tool_input, tool_response, message (the prompt),
//     session_id, working_dir and metadata (Stop: metadata.reason), unused
//     ones null. There is no hook_event_name, cwd, transcript_path or tool
//     call id. The environment adds OPENHANDS_PROJECT_DIR,
//     OPENHANDS_SESSION_ID, OPENHANDS_EVENT_TYPE and OPENHANDS_TOOL_NAME;
//   - the config file is keyed by event in snake_case (pre_tool_use...),
//     PascalCase or inside Claude's {"hooks": …}; hookshim names the native
//     events in snake_case, the config's own spelling, so that an entry
//     install writes sits beside the user's under the same key (both
//     spellings of one event make the file fail to load);
//   - exit 2 blocks; any other non-zero exit is logged and ignored. Exit 0
//     with a JSON object is read at the top level only: decision
//     ("allow", "deny": blocks), reason, additionalContext, continue
//     (false blocks). Claude's hookSpecificOutput and updatedInput are not
//     read: there is no rewrite and no ask;
//   - a block on PreToolUse rejects the call with the reason; on
//     UserPromptSubmit it drops the message; on Stop the agent goes on with
//     additionalContext, else the reason, as a user message.
//     additionalContext reaches the model on UserPromptSubmit only (Stop
//     reads it only with a block). PostToolUse, SessionStart and SessionEnd
//     answers are not used.
var OpenHands = &Provider{
	ID:      "openhands",
	Name:    "OpenHands",
	Install: openhandsInstall,
	Signals: []Signal{
		Has("event_type", 3),
		Has("working_dir", 4),
		OneOf("event_type", 2, "PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd"),
		Has("hook_event_name", -5),
		// Goose and Crush name the event under "event"; OpenHands never
		// does. (Goose sends working_dir too.)
		Has("event", -5),
		EnvSet("OPENHANDS_PROJECT_DIR", 2),
		EnvSet("OPENHANDS_EVENT_TYPE", 1),
	},
	Events: []Spec{
		{"pre_tool_use", event.BeforeToolExecute, CanDeny},
		{"post_tool_use", event.AfterToolExecute, 0},
		{"user_prompt_submit", event.BeforePrompt, CanDeny | CanContext},
		{"stop", event.AgentStop, CanDeny},
		{"session_start", event.SessionStart, 0},
		{"session_end", event.SessionEnd, 0},
	},
	EventName: openhandsEventName,
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "working_dir",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolOutput: "tool_response",
		Prompt:     "message",
	},
	// The SDK's built-in tools (tools are named by their ToolDefinition;
	// execute_bash and str_replace_editor are the V0 names).
	Tools: Renames{
		{"terminal", event.ToolShell},
		{"execute_bash", event.ToolShell},
		{"file_editor", event.ToolFileEdit},
		{"str_replace_editor", event.ToolFileEdit},
		{"apply_patch", event.ToolFileEdit},
		{"grep", event.ToolSearch},
		{"glob", event.ToolFind},
		{"task", event.ToolAgent},
		{"delegate", event.ToolAgent},
	},
	Keep: []Renames{{
		{"metadata.reason", "reason"},
	}},
	Adjust:        adjustOpenHands,
	Encode:        encodeOpenHands,
	ProjectDirEnv: []string{"OPENHANDS_PROJECT_DIR"},
	Timeout:       30 * time.Second, // what openhands_install.go writes
}

// openhandsEventName turns event_type (PascalCase) into the config key
// spelling the native events are named by: PreToolUse -> pre_tool_use.
func openhandsEventName(p Payload) string {
	s := p.Get("event_type").Str
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// adjustOpenHands drops the fields OpenHands sends as null because its one
// payload model has them all: a prompt event has no tool, a tool event no
// prompt.
func adjustOpenHands(p Payload, _ *Spec, ev *event.Event) {
	if ev.Tool != nil && p.Get("tool_name").Type == gjson.Null {
		ev.Tool = nil
	}
	if ev.Prompt != nil && p.Get("message").Type == gjson.Null {
		ev.Prompt = nil
	}
}

func encodeOpenHands(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	o := &wire.Object{}
	if v.Decision == decision.Deny && spec.Can.Has(CanDeny) {
		o.Str("decision", "deny")
		o.Str("reason", denyReason(v))
	}
	if v.Context != "" && spec.Can.Has(CanContext) {
		o.Str("additionalContext", v.Context)
	}
	return JSONOrEmpty(o)
}
