package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Factory Droid (droid CLI).
//
// Sources: docs.factory.ai/reference/hooks-reference and
// docs.factory.ai/harness/hooks (read 2026-11), the hook code inside the
// droid 0.225.2 binary (npm @factory/cli-linux-x64 0.225.2), and what that
// binary did when run here with a mock model (`droid exec`, payloads in
// testdata/payloads/factory-droid); the binary wins where the docs differ:
//   - config: ~/.factory/hooks.json or .factory/hooks.json, whose top level
//     IS the event map ({"PreToolUse": [{matcher, hooks: [{type: "command",
//     command, timeout}]}]}): 0.225.2 logs "Ignoring unknown hook event
//     keys" for a {"hooks": {...}} wrapper and runs nothing from it. Older
//     setups keep the wrapped form in settings.json's "hooks" key. timeout
//     is in seconds. Events: PreToolUse, PostToolUse, Notification,
//     UserPromptSubmit, Stop, SubagentStop, PreCompact, SessionStart,
//     SessionEnd (`droid exec` sends no UserPromptSubmit);
//   - stdin is snake_case like Claude Code's: session_id, transcript_path
//     (~/.factory/sessions/<cwd-slug>/<id>.jsonl), cwd, permission_mode
//     ("off", "spec", "auto-low", "auto-medium", "auto-high": Droid's
//     autonomy levels), hook_event_name, then tool_name/tool_input
//     (/tool_response, a string for Execute), prompt, source, message_id…
//     PreToolUse carries no tool_use_id (also reported for 0.99.0,
//     entireio/cli#938). One third-party adapter (cupcake) documents
//     camelCase common fields (hookEventName, sessionId, transcriptPath,
//     permissionMode); the binary does not send them, but hookshim reads
//     both shapes;
//   - tools: Execute {command, riskLevel, riskLevelReason}, Create
//     {file_path, content}, Edit {file_path, old_str, new_str}, MultiEdit,
//     ApplyPatch {input: patch}, Read {file_path}, LS, Grep, Glob, WebSearch,
//     FetchUrl, Task, TodoWrite;
//   - env FACTORY_PROJECT_DIR, DROID_PROJECT_DIR and CLAUDE_PROJECT_DIR are
//     the project directory; the hook runs in it.
//
// What the 0.225.2 code reads from an answer (JSON on stdout, any exit
// code; exit 2 = stderr as a block or feedback, exit 3 = abort the agent):
//   - PreToolUse: hookSpecificOutput.permissionDecision allow (skips the
//     permission prompt) / deny (+permissionDecisionReason; measured: the
//     call is blocked, the reason reaches the model) / ask (only logged: the
//     usual permission flow decides, so ask degrades); updatedInput is
//     merged over the input, with or without a decision (measured without
//     one: the rewritten command ran), so hookshim sends it without "allow"
//     unless the policy allowed, and a rewrite does not skip Droid's
//     permission prompt; continue:false stops the agent; additionalContext
//     and systemMessage are not used;
//   - PostToolUse: additionalContext (to the model; measured), systemMessage
//     (to the user), continue:false; decision:"block" is not read, so a
//     deny there becomes context;
//   - UserPromptSubmit: blocked by exit 2 or continue:false (reason from
//     stopReason), not by decision:"block"; additionalContext or plain
//     stdout becomes context;
//   - Stop: decision:"block"+reason makes the agent go on; continue:false
//     ends it; systemMessage is shown to the user;
//   - SessionStart: additionalContext or plain stdout becomes context
//     (measured);
//   - PreCompact: only exit 2 or 3 stops the compaction;
//   - SubagentStop, Notification, SessionEnd: the answer is not read.
var Droid = &Provider{
	ID:       "factory-droid",
	Name:     "Factory Droid",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  droidInstall,
	Signals: []Signal{
		{Weight: 6, desc: `transcript_path is under "/.factory/"`, test: func(p Payload) bool {
			return containsPath(droidField(p, "transcript_path", "transcriptPath").Str, "/.factory/")
		}},
		OneOf("permission_mode", 4, droidModes...),
		OneOf("permissionMode", 4, droidModes...),
		OneOf("tool_name", 4, "Execute", "Create", "ApplyPatch", "FetchUrl", "LS"),
		{Weight: 2, desc: "hookEventName with a Claude-style event name", test: func(p Payload) bool {
			switch p.Get("hookEventName").Str {
			case "PreToolUse", "PostToolUse", "Notification", "UserPromptSubmit", "Stop",
				"SubagentStop", "PreCompact", "SessionStart", "SessionEnd":
				return p.Get("sessionId").Exists()
			}
			return false
		}},
		Has("timestamp", -3),
		EnvSet("DROID_PROJECT_DIR", 3),
		EnvSet("FACTORY_PROJECT_DIR", 2),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, CanContext},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAllow | CanRewrite | CanStop},
		{"PostToolUse", event.AfterToolExecute, CanContext | CanStop | CanMessage},
		{"Notification", event.Notification, 0},
		{"Stop", event.AgentStop, CanDeny | CanStop | CanMessage},
		{"SubagentStop", event.SubagentStop, 0},
		{"PreCompact", event.BeforeCompact, CanDeny},
		{"SessionEnd", event.SessionEnd, 0},
	},
	EventName: func(p Payload) string { return droidField(p, "hook_event_name", "hookEventName").Str },
	Fields:    claudeFields,
	Tools: Renames{
		{"Execute", event.ToolShell},
		{"Read", event.ToolFileRead},
		{"Create", event.ToolFileWrite},
		{"Edit", event.ToolFileEdit},
		{"MultiEdit", event.ToolFileEdit},
		{"ApplyPatch", event.ToolFileEdit},
		{"Grep", event.ToolSearch},
		{"Glob", event.ToolFind},
		{"WebSearch", event.ToolWebSearch},
		{"FetchUrl", event.ToolWebFetch},
		{"Task", event.ToolAgent},
	},
	SplitMCP: splitDoubleUnderscore,
	Keep:     []Renames{claudeKeep, droidKeep},
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		// The camelCase shape one adapter documents.
		if ev.SessionID == "" {
			ev.SessionID = p.Get("sessionId").Str
		}
		if ev.TranscriptPath == "" {
			ev.TranscriptPath = p.Get("transcriptPath").Str
		}
		if m := p.Get("permissionMode"); m.Exists() && ev.Get("permission_mode") == nil {
			ev.Set("permission_mode", []byte(m.Raw))
		}
	},
	Encode:        encodeDroid,
	Dialect:       droidDialect,
	ProjectDirEnv: []string{"FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR"},
	Timeout:       30 * time.Second, // what droid_install.go writes
}

// Droid's permission_mode values (its autonomy levels).
var droidModes = []string{"off", "spec", "auto-low", "auto-medium", "auto-high"}

// droidKeep are Droid's own per-event fields (beside Claude's).
var droidKeep = Renames{
	{"message_id", "message_id"},
	{"previous_session_id", "previous_session_id"},
	{"has_images", "has_images"},
	{"task_name", "task_name"},
	{"task_result", "task_result"},
	{"task_error", "task_error"},
	{"session_duration_ms", "session_duration_ms"},
	{"message_count", "message_count"},
}

// droidField reads the snake_case key, else its camelCase twin.
func droidField(p Payload, snake, camel string) gjson.Result {
	if r := p.Get(snake); r.Exists() {
		return r
	}
	return p.Get(camel)
}

// encodeDroid is the Claude dialect except where Droid reads another
// channel: a prompt is blocked by continue:false (decision:"block" is not
// read there), and a compaction only by exit 2.
func encodeDroid(spec *Spec, v *decision.Verdict) Answer {
	if spec != nil && spec.Native == "PreToolUse" && v.Decision == decision.None && v.UpdatedInput != nil {
		// Droid applies updatedInput without a decision; "allow" would also
		// skip its permission prompt, which a rewrite alone does not ask for.
		top := &wire.Object{}
		hso := &wire.Object{}
		hso.Str("hookEventName", spec.Native)
		hso.Raw("updatedInput", v.UpdatedInput)
		stopFields(top, v)
		top.Obj("hookSpecificOutput", hso)
		return JSON(top)
	}
	if spec != nil && v.Decision == decision.Deny {
		switch spec.Native {
		case "UserPromptSubmit":
			w := *v
			w.Decision = decision.None
			w.Stop = true
			w.StopReason = v.Reason
			w.Context = ""
			return droidClaude.encode(spec, &w)
		case "PreCompact":
			return Answer{Stderr: oneLineEnd(v.Reason), Exit: 2}
		}
	}
	return droidClaude.encode(spec, v)
}

var droidClaude = claudeStyle{explicitAllow: true}

// droidDialect is what a Factory Droid hook reads: Claude's keys with
// Droid's tool names (Execute, Create, FetchUrl).
var droidDialect = &Dialect{
	EventKey:      "hook_event_name",
	Always:        Renames{{"permission_mode", "permission_mode"}},
	EnvFile:       "CLAUDE_ENV_FILE", // on SessionStart, seen live
	EnvFileEvents: []string{"SessionStart"},
	Read:          readDroid,
}

// readDroid reads a Factory Droid hook's answer (claudeReader).
func readDroid(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "Factory Droid", plain: []string{"SessionStart", "UserPromptSubmit"}}.read(spec, exit, stdout, stderr)
}
