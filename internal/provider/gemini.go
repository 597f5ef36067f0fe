package provider

import (
	"bytes"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Gemini CLI.
//
// Verified against Gemini CLI 0.61.0 (npm @google/gemini-cli, bundle read
// and run here headless against a mock model, 2026-11-22) and
// google-gemini/gemini-cli @5411f113 (docs/hooks/reference.md,
// packages/core/src/hooks/{types,hookRunner,hookAggregator,hookEventHandler}.ts,
// core/coreToolHookTriggers.ts, scheduler/{hook-utils,scheduler}.ts,
// core/client.ts). Where the docs and the code disagree, the code is
// followed:
//   - hookRunner parses stdout (else stderr) as JSON whatever the exit
//     code; non-JSON text with exit 0 becomes a systemMessage shown to the
//     user, with exit 1 a warning, and with any other code (2, 126, 127...)
//     a denial. The docs say "other codes: warning"; the code blocks. A
//     shim that dies with 127 would block every tool, so hookshim answers
//     with exit 0 only and says everything in JSON;
//   - a denial is the top-level "decision": "deny" with "reason"
//     (isBlockingDecision accepts deny and block);
//   - BeforeTool is answered in scheduler/hook-utils.ts
//     evaluateBeforeToolHook: deny, continue:false and
//     hookSpecificOutput.tool_input are read, additionalContext is not (the
//     0.61.0 run confirmed it never reaches the model), "allow" does not
//     skip the policy engine, and "ask" forces a confirmation that a
//     headless run never gets: the tool never runs and the turn never
//     finishes (measured). So context, allow and ask are not offered there;
//   - hookSpecificOutput.tool_input REPLACES the arguments in 0.61.0
//     (tool.build(modifiedInput)), though the docs say it is merged over
//     them: hookshim always sends the whole rewritten input, right both ways;
//   - additionalContext is read on SessionStart, BeforeAgent and AfterTool
//     only, '<' and '>' escaped and wrapped in <hook_context>;
//   - systemMessage of every hook is shown to the user, never the model;
//     suppressOutput only hides it from the debug log, it does not hide a
//     tool's output, so it is not offered;
//   - stderr is read only when stdout is empty; on exit 0 it is shown to
//     the user as "Hook system message: …" (measured), so hookshim's own
//     warnings may go there;
//   - Gemini has no failure event: a failed tool is an AfterTool whose
//     tool_response carries error {message, type}; a shell command that
//     exits non-zero is not a failure (its llmContent says the exit code).
var Gemini = &Provider{
	ID:       "gemini-cli",
	Name:     "Gemini CLI",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  geminiInstall,
	Signals: []Signal{
		OneOf("hook_event_name", 8, "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent",
			"BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress"),
		// SessionStart, SessionEnd and Notification are Claude names too:
		// Gemini's carry an ISO timestamp (createBaseInput), Claude's none.
		{Weight: 3, desc: "timestamp is an ISO string on a shared event", test: func(p Payload) bool {
			switch hookEventName(p) {
			case "SessionStart", "SessionEnd", "Notification":
				return isISOTime(p.Get("timestamp").Str)
			}
			return false
		}},
		{Weight: 5, desc: `transcript_path is under "/.gemini/tmp/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.gemini/tmp/")
		}},
		Has("mcp_context", 3),
		// Qwen Code (a Gemini CLI fork) sends Claude's event names with an
		// ISO timestamp and a permission_mode; Gemini never sends the latter.
		Has("permission_mode", -2),
		EnvSet("GEMINI_SESSION_ID", 2),
		EnvSet("GEMINI_CWD", 1),
	},
	Events:    geminiEvents,
	EventName: hookEventName,
	Fields:    geminiFields,
	// Built-in tool names of 0.61.0 (tool-names.ts).
	Tools: Renames{
		{"run_shell_command", event.ToolShell},
		{"read_file", event.ToolFileRead},
		{"read_many_files", event.ToolFileRead},
		{"write_file", event.ToolFileWrite},
		{"replace", event.ToolFileEdit},
		{"grep_search", event.ToolSearch},
		{"glob", event.ToolFind},
		// Listing a directory discovers paths as glob does; the vocabulary
		// has no closer name.
		{"list_directory", event.ToolFind},
		{"google_web_search", event.ToolWebSearch},
		{"web_fetch", event.ToolWebFetch},
		{"invoke_agent", event.ToolAgent},
	},
	SplitMCP: geminiMCP,
	Keep: []Renames{{
		{"source", "source"},
		{"reason", "reason"},
		{"trigger", "trigger"},
		{"message", "message"},
		{"notification_type", "notification_type"},
		{"details", "details"},
		{"stop_hook_active", "stop_hook_active"},
		{"prompt_response", "last_assistant_message"},
		{"original_request_name", "original_request_name"},
		{"llm_request", "llm_request"},
		{"llm_response", "llm_response"},
	}},
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		if ev.Prompt != nil {
			// Gemini CLI 0.61.0 puts SessionStart's context (hookshim's own
			// answer among it) before the prompt of BeforeAgent and
			// AfterAgent as <hook_context> blocks (measured): policies see
			// what the user typed; the payload keeps the whole text.
			s := stripHookContext(*ev.Prompt)
			ev.Prompt = &s
		}
		if spec.Native == "AfterTool" && ev.Tool != nil {
			if e := p.Get("tool_response.error"); e.Exists() && e.Raw != "null" {
				ev.Name = event.ToolUseFailure
				ev.Tool.Error = []byte(e.Raw)
				ev.Tool.Output = nil
			}
		}
	},
	Encode:        encodeGemini,
	Dialect:       geminiDialect,
	ProjectDirEnv: []string{"GEMINI_PROJECT_DIR", "GEMINI_CWD"},
	Timeout:       30 * time.Second, // what gemini_install.go writes
}

// geminiMCP splits MCP tool names. mcp_context (sent for every MCP call,
// coreToolHookTriggers.ts extractMcpContext) names server and tool exactly;
// without it, mcp_<server>_<tool> (v0.34.0+) is split at the first
// underscore after the prefix, which is right unless the server name has
// one.
func geminiMCP(native string, p Payload) *event.MCP {
	if c := p.Get("mcp_context"); c.IsObject() {
		server, tool := c.Get("server_name").Str, c.Get("tool_name").Str
		if server != "" {
			if tool == "" {
				tool = strings.TrimPrefix(native, "mcp_"+server+"_")
			}
			return &event.MCP{Server: server, Tool: tool}
		}
	}
	return splitSingleUnderscore(native, p)
}

// encodeGemini writes a verdict, already fitted to the event. The answer is
// always exit 0: JSON when there is something to say, nothing otherwise
// (an empty stdout is "allow" with no message).
func encodeGemini(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	top := &wire.Object{}
	switch {
	case v.Decision == decision.Deny:
		top.Str("decision", "deny")
		if v.Reason != "" {
			top.Str("reason", v.Reason)
		}
	case v.UpdatedInput != nil:
		// Not needed for the rewrite to apply, but says what it is.
		top.Str("decision", "allow")
	}
	// getEffectiveReason prefers stopReason over reason.
	stopFields(top, v)
	if v.SystemMessage != "" {
		top.Str("systemMessage", v.SystemMessage)
	}
	rewrite := v.UpdatedInput != nil && v.Decision != decision.Deny
	if rewrite || v.Context != "" {
		// hookEventName is optional for Gemini (hookSpecificOutput is read
		// as a free-form record), but the documented output types carry it.
		hso := (&wire.Object{}).Str("hookEventName", spec.Native)
		if rewrite {
			hso.Raw("tool_input", v.UpdatedInput)
		}
		if v.Context != "" {
			hso.Str("additionalContext", v.Context)
		}
		top.Obj("hookSpecificOutput", hso)
	}
	return JSONOrEmpty(top)
}

// stripHookContext drops leading <hook_context>…</hook_context> blocks.
func stripHookContext(s string) string {
	for {
		t := strings.TrimLeft(s, " \t\r\n")
		if !strings.HasPrefix(t, "<hook_context>") {
			return s
		}
		end := strings.Index(t, "</hook_context>")
		if end < 0 {
			return s
		}
		s = t[end+len("</hook_context>"):]
		s = strings.TrimLeft(s, "\r\n")
	}
}

// geminiDialect is what a hook written for Gemini CLI reads: its payload
// carries an ISO timestamp on every event (createBaseInput), and its hooks
// get GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_SESSION_ID and, for Claude
// hooks, CLAUDE_PROJECT_DIR (hookRunner.ts).
var geminiDialect = &Dialect{
	EventKey: "hook_event_name",
	Always:   Renames{{"timestamp", FromNow}},
	Shell:    geminiShell,
	Response: ResponseGemini,
	// (the session file of its ChatRecordingService)
	Transcript: TranscriptGemini,
	Env: Renames{
		{"GEMINI_CWD", FromCwd},
		{"GEMINI_SESSION_ID", FromSessionID},
		{"CLAUDE_PROJECT_DIR", FromProjectDir},
	},
	MCPName: geminiMCPName,
	Finish:  finishGemini,
	Read:    readGemini,
}

// Gemini CLI's events and payload fields, which Tabnine CLI shares.
var geminiEvents = []Spec{
	{"BeforeTool", event.BeforeToolExecute, CanDeny | CanRewrite | CanStop | CanMessage},
	// deny replaces the tool's result with the reason ("Tool result
	// blocked: ..."); context is appended to the result.
	{"AfterTool", event.AfterToolExecute, CanDeny | CanContext | CanStop | CanMessage},
	// deny discards the prompt; continue:false ends the turn but keeps it.
	{"BeforeAgent", event.BeforePrompt, CanDeny | CanContext | CanStop | CanMessage},
	// deny rejects the final answer and sends the reason back to the
	// model as a new prompt (client.ts), with stop_hook_active: true.
	{"AfterAgent", event.AgentStop, CanDeny | CanStop | CanMessage},
	{"BeforeModel", event.BeforeModel, CanDeny | CanStop | CanMessage},
	// Fired for every streamed chunk.
	{"AfterModel", event.AfterModel, CanDeny | CanStop | CanMessage},
	// Only hookSpecificOutput.toolConfig is read (docs: no decision,
	// continue or systemMessage).
	{"BeforeToolSelection", event.BeforeToolSelection, 0},
	// Advisory: continue and decision are ignored.
	{"SessionStart", event.SessionStart, CanContext | CanMessage},
	// Not awaited; flow control ignored.
	{"SessionEnd", event.SessionEnd, CanMessage},
	// notification_type "ToolPermission" only; cannot grant or refuse.
	{"Notification", event.Notification, CanMessage},
	// 0.61.0 fires it before every model call (ChatCompressionService
	// calls it before checking the threshold), trigger "auto".
	{"PreCompress", event.BeforeCompact, CanMessage},
}

var geminiFields = Fields{
	SessionID:  "session_id",
	Cwd:        "cwd",
	Transcript: "transcript_path",
	Model:      "llm_request.model",
	ToolName:   "tool_name",
	ToolInput:  "tool_input",
	ToolOutput: "tool_response",
	Prompt:     "prompt",
}

// geminiShell runs a Gemini CLI hook's command on Unix (shell-utils.ts).
// It, geminiMCPName and finishGemini are named, and not read from
// geminiDialect's fields, so that Tabnine's dialect, which shares them,
// is data (TestInitCost).
var geminiShell = []string{"bash", "-c"}

func geminiMCPName(server, tool string) string { return "mcp_" + server + "_" + tool }

// finishGemini adds the server and tool of an MCP call (mcp_context).
func finishGemini(doc []byte, spec *Spec, ev *event.Event, _ string, _ []byte) ([]byte, error) {
	if t := ev.Tool; t != nil && t.MCP != nil && t.MCP.Server != "" {
		ctx := (&wire.Object{}).Str("server_name", t.MCP.Server).Str("tool_name", t.MCP.Tool)
		return sjson.SetRawBytes(doc, "mcp_context", ctx.Bytes())
	}
	return doc, nil
}

// readGemini reads an answer as hookRunner does: JSON on stdout (else
// stderr) whatever the exit code; text that is not JSON is a system
// message with exit 0, a warning with exit 1 and a denial with any other.
func readGemini(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	var o decision.Output
	text := stdout
	if len(bytes.TrimSpace(text)) == 0 {
		text = []byte(stderr)
	}
	doc, ok := answerObject(text)
	if !ok {
		msg := strings.TrimSpace(string(text))
		switch exit {
		case 0:
			o.SystemMessage = msg
		case 1:
			return o, exitFailed("Gemini CLI", exit, msg)
		default:
			o.Decision, o.Reason = decision.Deny, orBlocked(msg)
		}
		return o, nil
	}
	if d := doc.Get("decision"); d.Type == gjson.String && d.Str != "" {
		k, err := nativeKind(d.Str)
		if err != nil {
			return o, err
		}
		o.Decision, o.Reason = k, doc.Get("reason").Str
	}
	hso := doc.Get("hookSpecificOutput")
	o.Context = hso.Get("additionalContext").Str
	o.UpdatedInput = objectRaw(hso.Get("tool_input"))
	stopOf(doc, &o, "stopReason")
	o.SuppressOutput = doc.Get("suppressOutput").Type == gjson.True
	o.SystemMessage = doc.Get("systemMessage").Str
	return o, nil
}
