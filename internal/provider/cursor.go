package provider

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Cursor (IDE and the cursor-agent CLI).
//
// Cursor is closed source and cannot run here, so this table follows its
// documentation, https://cursor.com/docs/agent/hooks (a.k.a. /docs/hooks)
// and https://cursor.com/docs/reference/third-party-hooks, as stored late
// 2026, cross-checked with published captures of cursor-agent
// 2026.02.13 and a static reading of the cursor-agent 2026.09.18 bundle:
//   - every payload carries cursor_version, conversation_id, generation_id
//     and workspace_roots, also when Cursor runs a hook registered in
//     .claude/settings.json: it sends its own payload, with its own
//     camelCase event name and tool names (Bash becomes Shell);
//   - answers are snake_case JSON on stdout with exit 0 (camelCase
//     userMessage/agentMessage were Cursor 1.7's); exit 2 also blocks;
//   - a permission hook (preToolUse, before*, subagentStart) whose answer
//     is not valid JSON blocks the action, and with failClosed an empty
//     stdout does too, so hookshim always prints at least {};
//   - context reaches the model only through additional_context, on
//     sessionStart and postToolUse;
//   - permission "ask" is honoured on beforeShellExecution and
//     beforeMCPExecution only; preToolUse accepts it without enforcing it
//     and subagentStart treats it as deny;
//   - user_message is the text shown with a permission decision; there is
//     no channel that shows a message without one;
//   - stop and subagentStop ignore permission: the only way to keep the
//     agent going is followup_message, sent as the next user message
//     (capped by loop_limit);
//   - split events (beforeShellExecution, beforeReadFile, afterFileEdit...)
//     carry no tool_name/tool_input: hookshim builds the tool so that
//     policies see one shape;
//   - preToolUse also fires for MCP tools as "MCP:<tool>" without the
//     server; beforeMCPExecution then names the server (mcp_server_name)
//     and sends tool_input as a JSON string.
var Cursor = &Provider{
	ID:      "cursor",
	Name:    "Cursor",
	Install: cursorInstall,
	Signals: []Signal{
		Has("cursor_version", 10),
		Has("conversation_id", 3),
		Has("generation_id", 3),
		Array("workspace_roots", 2),
		OneOf("hook_event_name", 4, cursorOnlyEvents...),
		EnvSet("CURSOR_VERSION", 2),
		EnvSet("CURSOR_PROJECT_DIR", 1),
	},
	Events: []Spec{
		// env (the session's variables, see cursorTakesEnv) and
		// additional_context are read; continue and user_message are
		// accepted but not enforced.
		{"sessionStart", event.SessionStart, CanContext},
		{"sessionEnd", event.SessionEnd, 0},
		{"preToolUse", event.BeforeToolExecute, CanDeny | CanAllow | CanRewrite},
		// updated_mcp_tool_output (MCP results only) has no canonical
		// counterpart.
		{"postToolUse", event.AfterToolExecute, CanContext},
		{"postToolUseFailure", event.ToolUseFailure, 0},
		{"subagentStart", event.SubagentStart, CanDeny | CanAllow},
		// The agent stops unless told otherwise, so continue:false is
		// expressed by not asking it to go on (CanStop; see encodeCursor).
		{"subagentStop", event.SubagentStop, CanDeny | CanStop},
		{"beforeShellExecution", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow},
		{"afterShellExecution", event.AfterToolExecute, 0},
		{"beforeMCPExecution", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow},
		{"afterMCPExecution", event.AfterToolExecute, 0},
		{"beforeReadFile", event.BeforeToolExecute, CanDeny | CanAllow},
		{"afterFileEdit", event.AfterToolExecute, 0},
		// continue:false refuses the prompt; no context channel.
		{"beforeSubmitPrompt", event.BeforePrompt, CanDeny},
		{"preCompact", event.BeforeCompact, 0},
		{"stop", event.AgentStop, CanDeny | CanStop},
		{"afterAgentResponse", event.AfterAgentResponse, 0},
		{"afterAgentThought", "", 0},
		// Tab completions are not agent actions: no canonical event, so
		// policies do not run on every keystroke.
		{"beforeTabFileRead", "", 0},
		{"afterTabFileEdit", "", 0},
		{"workspaceOpen", "", 0},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "conversation_id",
		Cwd:        "cwd",
		Transcript: "transcript_path",
		Model:      "model",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "tool_use_id",
		ToolOutput: "tool_output",
		ToolError:  "error_message",
		Prompt:     "prompt",
	},
	// preToolUse/postToolUse tool names (docs matcher list: Shell, Read,
	// Write, Grep, Delete, Task, MCP:<tool>; StrReplace, Edit and Glob are
	// seen in real sessions).
	Tools: Renames{
		{"Shell", event.ToolShell},
		{"Read", event.ToolFileRead},
		{"Write", event.ToolFileWrite},
		{"Edit", event.ToolFileEdit},
		{"StrReplace", event.ToolFileEdit},
		{"Grep", event.ToolSearch},
		{"Glob", event.ToolFind},
		{"WebSearch", event.ToolWebSearch},
		{"WebFetch", event.ToolWebFetch},
		{"Task", event.ToolAgent},
	},
	SplitMCP: func(native string, p Payload) *event.MCP {
		server := p.Get("mcp_server_name").Str
		tool, ok := strings.CutPrefix(native, "MCP:")
		if !ok {
			if server == "" {
				return nil
			}
			tool = native
		}
		// preToolUse's "MCP:<tool>" does not say which server: the name
		// becomes mcp____<tool>, which an mcp__<server>__ matcher does
		// not claim.
		return &event.MCP{Server: server, Tool: tool}
	},
	Keep: []Renames{{
		{"status", "status"},
		{"loop_count", "loop_count"},
		{"reason", "reason"},
		{"trigger", "trigger"},
		{"failure_type", "failure_type"},
		{"is_interrupt", "is_interrupt"},
		{"composer_mode", "composer_mode"},
		{"is_background_agent", "is_background_agent"},
		{"subagent_type", "agent_type"},
		{"subagent_id", "agent_id"},
		{"parent_conversation_id", "parent_session_id"},
		{"agent_transcript_path", "agent_transcript_path"},
		{"summary", "last_assistant_message"},
		{"task", "task"},
		{"text", "text"},
		{"attachments", "attachments"},
		{"duration", "duration_ms"},
		{"duration_ms", "duration_ms"},
		{"final_status", "final_status"},
		{"generation_id", "turn_id"},
	}},
	Adjust:        adjustCursor,
	Encode:        encodeCursor,
	Dialect:       cursorDialect,
	SetInput:      setCursorInput,
	ProjectDirEnv: []string{"CURSOR_PROJECT_DIR"},
	SplitEvents:   true,
	VersionAt:     "cursor_version",
	VersionEnv:    "CURSOR_VERSION",
	Timeout:       30 * time.Second, // what cursor_install.go writes
}

// Events only Cursor sends under these names (Kiro also uses preToolUse,
// postToolUse and stop).
var cursorOnlyEvents = []string{
	"beforeShellExecution", "afterShellExecution", "beforeMCPExecution", "afterMCPExecution",
	"beforeReadFile", "afterFileEdit", "beforeSubmitPrompt", "afterAgentResponse",
	"afterAgentThought", "beforeTabFileRead", "afterTabFileEdit", "postToolUseFailure",
	"subagentStart", "subagentStop", "workspaceOpen",
}

// adjustCursor gives split events the tool they are about, and finds a
// working directory: cwd may be empty (cursor-agent), then tool_input.cwd
// or the first workspace root stands in.
func adjustCursor(p Payload, spec *Spec, ev *event.Event) {
	if ev.Cwd == "" {
		if c := p.Get("tool_input.cwd").Str; c != "" {
			ev.Cwd = c
		} else if r := p.Get("workspace_roots.0").Str; r != "" {
			ev.Cwd = r
		}
	}
	if ev.SessionID == "" {
		ev.SessionID = p.Get("session_id").Str
	}
	obj := func(pairs ...string) []byte {
		o := &wire.Object{}
		for i := 0; i+1 < len(pairs); i += 2 {
			if r := p.Get(pairs[i+1]); r.Exists() {
				o.Raw(pairs[i], []byte(r.Raw))
			}
		}
		return o.Bytes()
	}
	switch spec.Native {
	case "beforeShellExecution", "afterShellExecution":
		ev.Tool = &event.Tool{Name: event.ToolShell, Native: "Shell", Input: obj("command", "command", "cwd", "cwd"),
			Command: p.Get("command").Str}
		if o := p.Get("output"); o.Exists() {
			ev.Tool.Output = []byte(o.Raw)
		}
	case "beforeReadFile":
		// content (the whole file) stays in the raw payload only.
		ev.Tool = &event.Tool{Name: event.ToolFileRead, Native: "Read", Input: obj("file_path", "file_path"),
			FilePath: p.Get("file_path").Str}
	case "afterFileEdit":
		ev.Tool = &event.Tool{Name: event.ToolFileEdit, Native: "Write", Input: obj("file_path", "file_path", "edits", "edits"),
			FilePath: p.Get("file_path").Str}
	case "beforeMCPExecution", "afterMCPExecution":
		// Always an MCP tool, also when the server name is missing (the
		// docs tell policies to treat that as suspect).
		if ev.Tool != nil && ev.Tool.MCP == nil {
			ev.Tool.MCP = &event.MCP{Server: p.Get("mcp_server_name").Str, Tool: strings.TrimPrefix(ev.Tool.Native, "MCP:")}
			ev.Tool.Name = event.MCPName(ev.Tool.MCP.Server, ev.Tool.MCP.Tool)
		}
		if r := p.Get("result_json"); r.Exists() && ev.Tool != nil {
			ev.Tool.Output = decodedJSON(r)
		}
	case "postToolUse":
		// tool_output is the result JSON-encoded as a string
		// ({"output":…,"exitCode":0} for Shell): handlers get the value.
		if ev.Tool != nil && ev.Tool.Output != nil {
			ev.Tool.Output = decodedJSON(p.Get("tool_output"))
		}
	case "sessionEnd":
		if e := p.Get("error_message"); e.Exists() {
			ev.Set("error_message", []byte(e.Raw))
		}
	}
	if spec.Native == "postToolUseFailure" && ev.Tool != nil && ev.Tool.Error == nil {
		ev.Tool.Error = []byte(`""`)
	}
}

// setCursorInput puts a tool input into a sample payload (hookshim simulate
// --tool-input). Split events carry no tool_input: their input is at the
// top level (beforeShellExecution's command and cwd, beforeReadFile's
// file_path, afterFileEdit's file_path and edits), and beforeMCPExecution
// sends tool_input as a JSON string.
func setCursorInput(raw, input []byte) ([]byte, error) {
	switch ti := gjson.GetBytes(raw, "tool_input"); {
	case ti.Type == gjson.String:
		return sjson.SetBytes(raw, "tool_input", string(input))
	case ti.Exists():
		return sjson.SetRawBytes(raw, "tool_input", input)
	}
	var keys []string
	switch gjson.GetBytes(raw, "hook_event_name").Str {
	case "beforeShellExecution", "afterShellExecution":
		keys = []string{"command", "cwd"}
	case "beforeReadFile":
		keys = []string{"file_path"}
	case "afterFileEdit":
		keys = []string{"file_path", "edits"}
	default:
		return nil, errNoToolInput
	}
	in := gjson.ParseBytes(input)
	var err error
	for _, k := range keys {
		if v := in.Get(k); v.Exists() && err == nil {
			raw, err = sjson.SetRawBytes(raw, k, []byte(v.Raw))
		}
	}
	return raw, err
}

// decodedJSON returns a string that holds a JSON object or array as that
// value (repeated names resolved by LastWins), and anything else as it was
// sent.
func decodedJSON(r gjson.Result) []byte {
	if r.Type == gjson.String {
		if s := strings.TrimSpace(r.Str); (strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")) && gjson.Valid(s) {
			if d := LastWins([]byte(s)); d != nil {
				return d
			}
		}
	}
	return []byte(r.Raw)
}

// cursorPermission reports whether Cursor's event asks for a permission
// answer: its encoding and its reading of an answer that is not JSON
// both hang on this one list.
func cursorPermission(native string) bool {
	switch native {
	case "preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "subagentStart":
		return true
	}
	return false
}

// encodeCursor writes a verdict, already fitted to the event. Every answer
// is one JSON object, {} for no opinion.
func encodeCursor(spec *Spec, v *decision.Verdict) Answer {
	o := &wire.Object{}
	if spec == nil {
		return JSON(o)
	}
	switch {
	case cursorPermission(spec.Native):
		perm := permission(v) // updated_input is applied with an allow
		if perm != "" {
			o.Str("permission", perm)
		}
		if v.Reason != "" && (perm == "deny" || perm == "ask") {
			o.Str("user_message", v.Reason)
			// beforeReadFile and subagentStart have no agent_message.
			if spec.Native != "beforeReadFile" && spec.Native != "subagentStart" {
				o.Str("agent_message", v.Reason)
			}
		}
		if v.UpdatedInput != nil && perm == "allow" {
			o.Raw("updated_input", v.UpdatedInput)
		}
	case spec.Native == "beforeSubmitPrompt":
		if v.Decision == decision.Deny {
			o.Bool("continue", false)
			if v.Reason != "" {
				o.Str("user_message", v.Reason)
			}
		}
	case spec.Native == "stop" || spec.Native == "subagentStop":
		// deny here means "do not stop yet"; continue:false wins over it.
		if v.Decision == decision.Deny && v.Reason != "" && !v.Stop {
			o.Str("followup_message", v.Reason)
		}
	}
	if v.Context != "" {
		o.Str("additional_context", v.Context)
	}
	if v.Env != nil && cursorTakesEnv(spec.Native) {
		o.Raw("env", v.Env)
	}
	return JSON(o)
}

// cursorTakesEnv reports whether the event's answer may set the session's
// variables: sessionStart's env, an object of strings (cursor.com/docs/hooks,
// "sessionStart" output: {"env": {…}, "additional_context": …}).
func cursorTakesEnv(native string) bool { return native == "sessionStart" }

// cursorDialect is what a hook written for Cursor reads: its ids and
// workspace roots on every event, CURSOR_PROJECT_DIR and (for the Claude
// hooks it imports) CLAUDE_PROJECT_DIR, MCP tools as "MCP:<tool>".
var cursorDialect = &Dialect{
	EventKey: "hook_event_name",
	// A hook's env file exports (CLAUDE_ENV_FILE) reach Cursor as
	// sessionStart's env; a Cursor hook's env reaches another tool's
	// env file.
	EnvAnswerEvents: []string{"sessionStart"},
	Always: Renames{
		{"generation_id", "turn_id"},
		{"cursor_version", "cursor_version"},
		{"workspace_roots", FromProjectRoots},
	},
	Env:     Renames{{"CLAUDE_PROJECT_DIR", FromProjectDir}},
	MCPName: func(_, tool string) string { return "MCP:" + tool },
	Pick:    pickCursor,
	Finish:  finishCursor,
	Read:    readCursor,
}

// pickCursor sends a shell command, an MCP call and a file read to the
// events Cursor's own hooks for them are written for
// (beforeShellExecution and its kin, the documented way to guard them);
// every other event is the first of its name.
func pickCursor(ev *event.Event, name event.Name) (string, bool) {
	if name == event.BeforeToolExecute && ev.Tool != nil {
		switch {
		case ev.Tool.MCP != nil:
			return "beforeMCPExecution", true
		case ev.Tool.Name == event.ToolShell:
			return "beforeShellExecution", true
		case ev.Tool.Name == event.ToolFileRead:
			return "beforeReadFile", true
		}
	}
	return "", false
}

// finishCursor writes the split events' own keys (adjustCursor
// backwards). tool_name and tool_input stay beside them, so that a hook
// written for preToolUse reads the same call.
func finishCursor(doc []byte, spec *Spec, ev *event.Event, _ string, input []byte) ([]byte, error) {
	t := ev.Tool
	if t == nil {
		return doc, nil
	}
	var err error
	set := func(k, v string) {
		if err == nil && v != "" {
			doc, err = sjson.SetBytes(doc, k, v)
		}
	}
	switch spec.Native {
	case "beforeShellExecution":
		set("command", t.Command)
		set("cwd", ev.Cwd)
	case "beforeReadFile":
		set("file_path", t.FilePath)
	case "beforeMCPExecution":
		set("tool_name", t.MCP.Tool)
		set("mcp_server_name", t.MCP.Server)
		set("tool_input", string(input)) // a JSON string, as Cursor sends it
	}
	return doc, err
}

// readCursor reads an answer by Cursor's contract: exit 2 blocks; exit 0
// is snake_case JSON (camelCase from Cursor 1.7 is read too); a permission
// event's answer that is not JSON blocks the action.
func readCursor(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	var o decision.Output
	permissionEvent := cursorPermission(spec.Native)
	switch {
	case exit == 2:
		o.Decision, o.Reason = decision.Deny, orBlocked(stderr)
		return o, nil
	case exit != 0:
		return o, exitFailed("Cursor", exit, stderr)
	}
	doc, ok := answerObject(stdout)
	if !ok {
		if permissionEvent && len(bytes.TrimSpace(stdout)) > 0 {
			o.Decision, o.Reason = decision.Deny, "the hook's answer is not JSON (Cursor blocks the action then)"
		}
		return o, nil
	}
	get := func(snake, camel string) string {
		if s := doc.Get(snake).Str; s != "" {
			return s
		}
		return doc.Get(camel).Str
	}
	if p := doc.Get("permission"); p.Type == gjson.String && p.Str != "" {
		k, err := nativeKind(p.Str)
		if err != nil {
			return o, fmt.Errorf("permission: %w", err)
		}
		o.Decision = k
		o.Reason = firstNonEmptyString(get("agent_message", "agentMessage"), get("user_message", "userMessage"))
	}
	o.UpdatedInput = objectRaw(doc.Get("updated_input"))
	if doc.Get("continue").Type == gjson.False {
		if spec.Canonical == event.BeforePrompt {
			// continue:false refuses the prompt.
			o.Decision, o.Reason = decision.Deny, get("user_message", "userMessage")
		} else {
			f := false
			o.Continue = &f
		}
	}
	if f := doc.Get("followup_message").Str; f != "" {
		// On stop: go on, with this as the next message.
		o.Decision, o.Reason = decision.Deny, f
	}
	o.Context = doc.Get("additional_context").Str
	if spec.Native == "sessionStart" {
		o.Env = objectRaw(doc.Get("env"))
	}
	return o, nil
}
