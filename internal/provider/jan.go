package provider

import (
	"bytes"
	"errors"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Jan Agent (janhq/jan: the jan CLI agent and the desktop app's agent).
//
// Not run here: Jan ships as a desktop app and a native CLI outside the
// registries this project reaches. From its source (janhq/jan,
// src-tauri/plugins/tauri-plugin-agent-tools/src/tools/hooks.rs and
// src-tauri/src/core/agent/hooks_config.rs at 0a79e37f) and the docs page
// www.jan.ai/docs/agent/hooks:
//   - six events: PreToolUse, PostToolUse, UserPromptSubmit, SessionStart,
//     SessionEnd, PreCompact, spelt exactly so (the names are read
//     case-sensitively). The two tool events do not fire in Plan mode;
//   - stdin is one JSON object: event, project_root, and where the event
//     has them tool_name, tool_input, tool_result (PostToolUse), prompt
//     (UserPromptSubmit), session_id and message_count. There is no cwd:
//     project_root is the run's project folder (ToolContext.project_root,
//     to_json), where Jan runs the hook (run_one) and resolves its tools'
//     paths, so it is read as the cwd, and the project folder, and a hook
//     written for Jan is given the project folder there, whatever folder
//     the caller's command ran in. Tool names are Jan's own, lower
//     case: bash {command, timeout}, read {path, offset, limit}, write
//     {path, content}, edit {path, edits: [{old_string, new_string}]}, ls,
//     find, grep, memory_*, skill_*, web_search, web_fetch, screenshot;
//   - the answer is stdout only, read only on exit 0: empty means proceed;
//     a JSON object may carry {"decision": "deny", "reason": …}, honoured
//     for PreToolUse alone (no other decision is read: a hook cannot
//     approve what Jan's own permission gate would not), and {"context":
//     …}, which Jan folds into the next turn as a system reminder. A deny
//     stops the hooks behind it;
//   - any other exit, a timeout (default 60 s) or stdout that is not a
//     JSON object is a notice to the user and the run goes on: hookshim's
//     own failure never blocks Jan, and neither does its empty answer.
//     stderr is discarded.
//
// Jan has no ask: the default degradation denies. Context is claimed where
// a next turn follows (not on SessionEnd, which fires after the last one).
//
// Detection: "event" beside "project_root", with no hook_event_name and
// no cwd. Crush and Goose also name the event under "event", some with the
// same event names (Crush with lower-case tool names too), but neither
// sends project_root, and Crush sends cwd.
var Jan = &Provider{
	ID:       "jan",
	Name:     "Jan",
	Verified: "from source (janhq/jan tauri-plugin-agent-tools src/tools/hooks.rs and src/core/agent/hooks_config.rs at 0a79e37f) and docs (https://www.jan.ai/docs/agent/hooks); not run here",
	Install:  janInstall,
	Signals: []Signal{
		Has("project_root", 6),
		// Goose sends some of the same event names under "event", but no
		// project_root: the name counts only beside it.
		{Weight: 4, desc: `"event" is one of Jan's event names, beside project_root`, test: func(p Payload) bool {
			return janEventName(p) != "" && p.Get("project_root").Exists()
		}},
		OneOf("tool_name", 2, "bash", "read", "write", "edit", "ls", "find", "grep", "memory_list",
			"memory_read", "memory_write", "skill_list", "skill_read", "skill_write", "web_search",
			"web_fetch", "screenshot"),
		// What Jan never sends: Claude's keys, Crush's cwd, Goose's.
		Has("hook_event_name", -4),
		Has("cwd", -4),
		Has("transcript_path", -3),
		Has("matcher_context", -4),
		Has("working_dir", -3),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, CanContext},
		{"UserPromptSubmit", event.BeforePrompt, CanContext},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanContext},
		{"PostToolUse", event.AfterToolExecute, CanContext},
		{"PreCompact", event.BeforeCompact, CanContext},
		{"SessionEnd", event.SessionEnd, 0},
	},
	EventName: janEventName,
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "project_root",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolOutput: "tool_result",
		Prompt:     "prompt",
	},
	Tools: Renames{
		{"bash", event.ToolShell},
		{"read", event.ToolFileRead},
		{"write", event.ToolFileWrite},
		{"edit", event.ToolFileEdit},
		{"grep", event.ToolSearch},
		{"find", event.ToolFind},
		{"web_search", event.ToolWebSearch},
		{"web_fetch", event.ToolWebFetch},
	},
	Keep:    []Renames{{{"message_count", "message_count"}}},
	Encode:  encodeJan,
	Dialect: janDialect,
	Timeout: 30 * time.Second, // what jan_install.go writes (Jan's default is 60 s)
}

// janEventName reads "event" when it is one of Jan's six events, which
// Jan spells in one way only; "" otherwise.
func janEventName(p Payload) string {
	switch n := p.Get("event").Str; n {
	case "PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "SessionEnd", "PreCompact":
		return n
	}
	return ""
}

// encodeJan writes the two things Jan reads: a denial (PreToolUse only,
// which the capabilities already ensure) and context. Anything else is
// "no opinion", an empty stdout.
func encodeJan(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	o := &wire.Object{}
	if v.Decision == decision.Deny && spec.Can.Has(CanDeny) {
		o.Str("decision", "deny")
		if v.Reason != "" {
			o.Str("reason", v.Reason)
		}
	}
	if v.Context != "" && spec.Can.Has(CanContext) {
		o.Str("context", v.Context)
	}
	return JSONOrEmpty(o)
}

// janDialect is what a Jan hook reads: the event under "event", the
// project folder as project_root, and Jan's file tools, whose file is
// "path" and whose edit always carries a list of edits.
var janDialect = &Dialect{
	EventKey:     "event",
	CwdIsProject: true,
	Inputs: []InputKeys{
		{event.ToolFileRead, Renames{{"path", "file_path"}}},
		{event.ToolFileWrite, Renames{{"path", "file_path"}}},
		{event.ToolFileEdit, Renames{{"path", "file_path"}}},
	},
	MultiEdit: "edit",
	Finish:    finishJan,
	Read:      readJan,
}

// finishJan writes one edit as Jan's edit tool takes it: edits, a list of
// old_string and new_string, never the pair on its own.
func finishJan(doc []byte, _ *Spec, _ *event.Event, tool string, input []byte) ([]byte, error) {
	in := gjson.ParseBytes(input)
	if tool != "edit" || in.Get("edits").Exists() || !in.Get("old_string").Exists() {
		return doc, nil
	}
	one := (&wire.Object{}).Str("old_string", in.Get("old_string").Str).Str("new_string", in.Get("new_string").Str)
	out := &wire.Object{}
	in.ForEach(func(k, v gjson.Result) bool {
		if k.Str != "old_string" && k.Str != "new_string" {
			out.Raw(k.Str, []byte(v.Raw))
		}
		return true
	})
	out.Raw("edits", append(append([]byte("["), one.Bytes()...), ']'))
	return sjson.SetRawBytes(doc, "tool_input", out.Bytes())
}

// readJan reads an answer as hooks.rs does: stdout only, and only on exit
// 0; empty is "go on"; a JSON object's decision "deny" blocks PreToolUse
// (no other decision is read, nor a deny elsewhere) and its context is
// added. Any other exit, or stdout that is not a JSON object, is a failed
// hook there and here.
func readJan(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	var o decision.Output
	if exit != 0 {
		return o, exitFailed("Jan", exit, stderr)
	}
	if len(bytes.TrimSpace(stdout)) == 0 {
		return o, nil
	}
	doc, ok := answerObject(stdout)
	if !ok {
		return o, errors.New("stdout is not a JSON object, which Jan reads as a failed hook")
	}
	if doc.Get("decision").Str == "deny" && spec.Can.Has(CanDeny) {
		o.Decision, o.Reason = decision.Deny, orBlocked(doc.Get("reason").Str)
	}
	o.Context = doc.Get("context").Str
	return o, nil
}
