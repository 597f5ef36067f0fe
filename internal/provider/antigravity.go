package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Google Antigravity (the agy CLI and the Antigravity app).
//
// No client could be run here (it needs a Google sign-in and Google-hosted
// models). The contract comes from third-party measurements, checked
// against each other:
//   - stbenjam/skillsaw docs/rules/antigravity-hooks-valid.md @05e1db1f
//     (agy 1.1.25/1.1.26): the hooks.json grammar (see antigravity_install.go);
//   - a reverse-engineered map of agy 1.1.20's hooks proto and embedded docs,
//     verified in live sessions (an htsave adapter's "agy hook and tool
//     contract reference"): the events, their payloads and answers;
//   - a plugin's live SessionStart capture (agy-session-start-hook.sh):
//     stdout is parsed as protojson, so plain text fails the hook;
//   - rtk-ai/rtk src/hooks/init/antigravity.rs @81484acc: PreToolUse on
//     run_command, commands rewritten, permissions re-checked afterwards.
//
// The payload is camelCase protojson and names no event: every
// registration carries --event. Common fields: conversationId,
// workspacePaths, transcriptPath, artifactDirectoryPath, modelName.
// PreToolUse adds toolCall {name, args} and stepIdx; PostToolUse the same
// and error when the tool failed; PreInvocation (before each model call)
// invocationNum and initialNumSteps; PostInvocation those and modelOutput,
// modelThinking; Stop executionNum, terminationReason, fullyIdle,
// finalModelOutput. Tool args use PascalCase keys (CommandLine,
// AbsolutePath, TargetFile).
//
// Answers, a JSON object on stdout at exit 0; protojson rejects unknown
// keys, so hookshim writes only these, and {} for no opinion:
//   - PreToolUse: decision allow | deny | ask, reason; overwrite merges
//     its keys over the tool's args (a shallow merge: a key the rewrite
//     drops keeps its old value), and Antigravity checks its permissions
//     again on the rewritten call;
//   - PostToolUse: only {} (the result message has no field);
//   - SessionStart, PreInvocation: injectSteps; context goes in as a
//     userMessage at session start (it stays in the conversation) and as
//     an ephemeralMessage before a model call (seen by that call only);
//   - PostInvocation: injectSteps and terminationBehavior "terminate"
//     (continue: false);
//   - Stop: decision "continue" with reason keeps the agent working.
//
// Exit codes and stderr are not documented anywhere we could read: hookshim
// always exits 0 with JSON. agy 1.0.5 was reported to run only PreToolUse
// and PostToolUse; SessionStart fired on 1.1.20.
var Antigravity = &Provider{
	ID:      "antigravity",
	Name:    "Google Antigravity",
	Install: antigravityInstall,
	Signals: []Signal{
		{Weight: 6, desc: "conversationId and workspacePaths, no event name", test: func(p Payload) bool {
			return p.Get("conversationId").Type == gjson.String && p.Get("workspacePaths").IsArray() &&
				amplifierNoEventName(p) && !p.Get("event").Exists() && !p.Get("event_type").Exists()
		}},
		Object("toolCall", 2),
		Has("artifactDirectoryPath", 2),
		Typed("stepIdx", gjson.Number, 1),
		Has("session_id", -3),
		Has("sessionId", -3),
	},
	Events: []Spec{
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanRewrite},
		{"PostToolUse", event.AfterToolExecute, 0},
		{"SessionStart", event.SessionStart, CanContext},
		{"PreInvocation", event.BeforeModel, CanContext},
		{"PostInvocation", event.AfterModel, CanContext | CanStop},
		{"Stop", event.AgentStop, CanDeny},
	},
	EventName: func(Payload) string { return "" },
	// A successful PostToolUse looks like a PreToolUse (error is left out
	// when empty), so only the shapes nothing else shares name an event.
	Shapes: []Shape{
		{Event: "PostToolUse", Has: []string{"toolCall", "error"}},
		{Event: "PreInvocation", Has: []string{"invocationNum"}, Not: []string{"modelOutput", "modelThinking"}},
		{Event: "PostInvocation", Has: []string{"invocationNum", "modelOutput"}},
		{Event: "Stop", Has: []string{"executionNum"}},
	},
	Fields: Fields{
		SessionID:  "conversationId",
		Cwd:        "workspacePaths.0",
		Transcript: "transcriptPath",
		Model:      "modelName",
		ToolName:   "toolCall.name",
		ToolInput:  "toolCall.args",
		ToolError:  "error",
	},
	Tools: Renames{
		{"run_command", event.ToolShell},
		{"view_file", event.ToolFileRead},
		{"write_to_file", event.ToolFileWrite},
		{"replace_file_content", event.ToolFileEdit},
		{"multi_replace_file_content", event.ToolFileEdit},
		{"edit_file", event.ToolFileEdit},
		{"codebase_search", event.ToolSearch},
		{"grep_search", event.ToolSearch},
		{"find_by_name", event.ToolFind},
		{"search_web", event.ToolWebSearch},
		{"read_url_content", event.ToolWebFetch},
		{"invoke_subagent", event.ToolAgent},
	},
	Keep: []Renames{{
		{"stepIdx", "step_index"},
		{"artifactDirectoryPath", "artifact_directory"},
		{"invocationNum", "invocation_number"},
		{"initialNumSteps", "initial_step_count"},
		{"modelOutput", "model_output"},
		{"modelThinking", "model_thinking"},
		{"executionNum", "execution_number"},
		{"terminationReason", "reason"},
		{"fullyIdle", "fully_idle"},
		{"finalModelOutput", "last_assistant_message"},
	}},
	Adjust:  adjustAntigravity,
	Encode:  encodeAntigravity,
	Timeout: 30 * time.Second,
}

func adjustAntigravity(p Payload, spec *Spec, ev *event.Event) {
	t := ev.Tool
	if t == nil {
		return
	}
	in := gjson.ParseBytes(t.Input)
	// Adjust runs before the tool is named canonically: go by the native name.
	if t.Native == "run_command" && t.Command == "" {
		t.Command = in.Get("CommandLine").Str
	}
	if t.FilePath == "" {
		for _, k := range []string{"AbsolutePath", "TargetFile", "FilePath"} {
			if s := in.Get(k).Str; s != "" {
				t.FilePath = s
				break
			}
		}
	}
	// error is the failure's text; an empty one is a success.
	if spec.Native == "PostToolUse" {
		if e := p.Get("error"); e.Exists() && e.Str != "" {
			ev.Name = event.ToolUseFailure
			t.Error = []byte(e.Raw)
		} else {
			t.Error = nil
		}
	}
}

// encodeAntigravity writes the fields of the event's result message, and
// {} when there is nothing to say: protojson fails on anything else.
func encodeAntigravity(spec *Spec, v *decision.Verdict) Answer {
	o := &wire.Object{}
	if spec == nil {
		return JSON(o)
	}
	switch spec.Native {
	case "PreToolUse":
		if d := permission(v); d != "" {
			o.Str("decision", d)
			if v.Reason != "" {
				o.Str("reason", v.Reason)
			}
		}
		if v.UpdatedInput != nil && v.Decision != decision.Deny {
			o.Raw("overwrite", v.UpdatedInput)
		}
	case "SessionStart":
		injectStep(o, "userMessage", v.Context)
	case "PreInvocation":
		injectStep(o, "ephemeralMessage", v.Context)
	case "PostInvocation":
		injectStep(o, "ephemeralMessage", v.Context)
		if v.Stop {
			o.Str("terminationBehavior", "terminate")
		}
	case "Stop":
		if v.Decision == decision.Deny {
			o.Str("decision", "continue")
			o.Str("reason", v.Reason)
		}
	}
	return JSON(o)
}

// injectStep adds injectSteps: [{kind: text}] when there is text.
func injectStep(o *wire.Object, kind, text string) {
	if text == "" {
		return
	}
	step := (&wire.Object{}).Str(kind, text).Bytes()
	o.Raw("injectSteps", append(append([]byte{'['}, step...), ']'))
}
