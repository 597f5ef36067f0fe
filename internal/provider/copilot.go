package provider

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// GitHub Copilot CLI and the Copilot cloud agent.
//
// Verified against Copilot CLI 1.0.102 (npm @github/copilot) run here with a
// mock model (payloads and answers recorded from the real client, see
// testdata/payloads/copilot-cli/README.md), its bundled changelog, and the
// hooks reference (github/docs content/copilot/reference/hooks-reference.md
// at 05da5bc3):
//   - the payload format follows the spelling the event was registered
//     under. A camelCase key (preToolUse) sends camelCase fields (sessionId,
//     toolName, toolArgs, toolResult), an epoch-ms number timestamp and NO
//     event name: hookshim is registered with --event NAME. A PascalCase key
//     (PreToolUse, "VS Code compatible", 1.0.21+) sends snake_case fields,
//     hook_event_name, an ISO timestamp and Claude tool names (Bash, Read,
//     Write, Edit, Agent; 1.0.62+). Both formats are one provider;
//   - exceptions measured on 1.0.102: permissionRequest carries
//     hookName:"permissionRequest" and the camelCase fields whichever way it
//     was registered; notification carries hook_event_name:"Notification"
//     beside camelCase fields; a PascalCase SubagentStart gets camelCase
//     fields with snake agent_id/agent_type and no event name;
//   - toolArgs is documented as unknown and was a JSON string in early 2026
//     (github/copilot-cli#3349); 1.0.102 sent an object. Both are accepted;
//   - answers are flat JSON on stdout, exit 0, in both formats: measured,
//     hookSpecificOutput is honoured on PreToolUse only and ignored on every
//     other event, so hookshim never nests. permissionDecision
//     allow/deny/ask (ask is denied with the reason when nobody can answer:
//     -p, cloud agent), permissionDecisionReason, modifiedArgs (a rewrite,
//     honoured since 1.0.24), additionalContext (delivered on sessionStart,
//     userPromptSubmitted, preToolUse, postToolUse, postToolUseFailure,
//     subagentStart: measured), agentStop/subagentStop decision:"block"
//     with reason, permissionRequest behavior allow/deny with message and
//     interrupt (deny + interrupt ends the agent's turn: measured);
//   - userPromptSubmitted/UserPromptSubmit decision:"block" with reason
//     refuses the prompt before any model call (measured on 1.0.102; not in
//     the reference, which says the output is dropped apart from context);
//   - continue:false is ignored everywhere (measured on preToolUse and
//     userPromptSubmitted), so a stop becomes a denial where one exists;
//   - CRUCIAL: a command preToolUse hook that crashes, exits non-zero (2 or
//     any other) or whose command is missing DENIES the tool call (1.0.57,
//     1.0.70; measured). Only a timeout fails open. hookshim therefore exits
//     0 on every answer, its own failures included, and blocks only with
//     permissionDecision:"deny";
//   - plain stdout is never context; empty stdout is "no opinion";
//   - MCP tools are named <server>-<tool> (measured), with no field naming
//     the server;
//   - hook processes get COPILOT_CLI=1, COPILOT_PROJECT_DIR,
//     COPILOT_HOOK_DIR and CLAUDE_PROJECT_DIR (measured).
var Copilot = &Provider{
	ID:       "copilot-cli",
	Name:     "GitHub Copilot CLI",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  copilotInstall,
	Signals: []Signal{
		{Weight: 8, desc: "sessionId with an epoch-ms timestamp", test: func(p Payload) bool {
			return p.Get("sessionId").Type == gjson.String && p.Get("timestamp").Type == gjson.Number
		}},
		Has("toolArgs", 3),
		Has("toolResult", 3),
		Is("hookName", "permissionRequest", 6),
		{Weight: 3, desc: "ISO timestamp on a Copilot event, no permission_mode", test: func(p Payload) bool {
			return slices.Contains(copilotPascal, hookEventName(p)) && isISOTime(p.Get("timestamp").Str) && !p.Get("permission_mode").Exists()
		}},
		{Weight: 5, desc: "ISO timestamp without transcript_path or tool_use_id", test: func(p Payload) bool {
			return slices.Contains(copilotPascal, hookEventName(p)) && isISOTime(p.Get("timestamp").Str) &&
				!p.Get("transcript_path").Exists() && !p.Get("tool_use_id").Exists() && !p.Get("permission_mode").Exists()
		}},
		{Weight: 6, desc: `transcript path is under "/.copilot/session-state/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.copilot/session-state/") ||
				containsPath(p.Get("transcriptPath").Str, "/.copilot/session-state/")
		}},
		Object("tool_result", 4),
		Has("stop_reason", 3),
		Has("initial_prompt", 3),
		Has("error_context", 3),
		Is("hook_event_name", "ErrorOccurred", 4),
		EnvIs("COPILOT_CLI", "1", 2),
		EnvSet("COPILOT_HOOK_DIR", 2),
	},
	Events: []Spec{
		{"sessionStart", event.SessionStart, CanContext},
		{"SessionStart", event.SessionStart, CanContext},
		{"sessionEnd", event.SessionEnd, 0},
		{"SessionEnd", event.SessionEnd, 0},
		{"userPromptSubmitted", event.BeforePrompt, CanDeny | CanContext},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext},
		// Rewrites the model-facing prompt only (modifiedTransformedPrompt):
		// no canonical event, so no handler runs twice per prompt.
		{"userPromptTransformed", "", 0},
		{"preToolUse", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanContext | CanRewrite},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanContext | CanRewrite},
		{"postToolUse", event.AfterToolExecute, CanContext},
		{"PostToolUse", event.AfterToolExecute, CanContext},
		{"postToolUseFailure", event.ToolUseFailure, CanContext},
		{"PostToolUseFailure", event.ToolUseFailure, CanContext},
		{"permissionRequest", event.PermissionRequest, CanDeny | CanAllow | CanStop},
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAllow | CanStop},
		// A block forces another turn; letting the agent stop needs no answer.
		{"agentStop", event.AgentStop, CanDeny | CanStop},
		{"Stop", event.AgentStop, CanDeny | CanStop},
		{"subagentStart", event.SubagentStart, CanContext},
		{"SubagentStart", event.SubagentStart, CanContext},
		{"subagentStop", event.SubagentStop, CanDeny | CanStop},
		{"SubagentStop", event.SubagentStop, CanDeny | CanStop},
		{"errorOccurred", event.ErrorOccurred, 0},
		{"ErrorOccurred", event.ErrorOccurred, 0},
		{"preCompact", event.BeforeCompact, 0},
		{"PreCompact", event.BeforeCompact, 0},
		// Fire-and-forget; additionalContext becomes a user message.
		{"notification", event.Notification, CanContext},
		{"Notification", event.Notification, CanContext},
	},
	EventName: copilotEventName,
	// The camelCase payloads' own keys, from the hooks reference's field
	// table and the recordings (1.0.102): for a hook written without
	// --event. The PascalCase format always names its event.
	Shapes: []Shape{
		{Event: "preToolUse", Has: []string{"toolName", "toolArgs"}, Not: []string{"toolResult", "error"}},
		{Event: "postToolUse", Has: []string{"toolName", "toolResult"}},
		{Event: "postToolUseFailure", Has: []string{"toolName", "error"}, Not: []string{"toolResult"}},
		{Event: "permissionRequest", Has: []string{"toolName", "toolInput"}, Not: []string{"toolArgs"}},
		{Event: "userPromptSubmitted", Has: []string{"prompt"}, Not: []string{"transformedPrompt"}},
		{Event: "userPromptTransformed", Has: []string{"prompt", "transformedPrompt"}},
		{Event: "sessionStart", Has: []string{"source"}},
		{Event: "sessionEnd", Has: []string{"reason"}},
		{Event: "agentStop", Has: []string{"stopReason"}, Not: []string{"agentId", "agent_id"}},
		{Event: "subagentStart", Has: []string{"agentId"}, Not: []string{"stopReason", "prompt"}},
		// What a PascalCase SubagentStart registration receives (measured).
		{Event: "SubagentStart", Has: []string{"agent_id"}, Not: []string{"stopReason", "stop_reason", "prompt"}},
		{Event: "subagentStop", Has: []string{"agentId", "stopReason"}},
		{Event: "errorOccurred", Has: []string{"errorContext"}},
		{Event: "preCompact", Has: []string{"trigger"}},
		{Event: "notification", Has: []string{"notification_type"}},
	},
	// camelCase paths; adjustCopilot reads the PascalCase registrations'
	// snake_case fields.
	Fields: Fields{
		SessionID:  "sessionId",
		Cwd:        "cwd",
		Transcript: "transcriptPath",
		ToolName:   "toolName",
		ToolInput:  "toolArgs",
		ToolOutput: "toolResult",
		ToolError:  "error",
		Prompt:     "prompt",
	},
	// Runtime names (camelCase payloads) and the Claude names PascalCase
	// payloads report instead (hooks reference, "Claude-format matchers").
	Tools: Renames{
		{"bash", event.ToolShell},
		{"powershell", event.ToolShell},
		{"view", event.ToolFileRead},
		{"create", event.ToolFileWrite},
		{"edit", event.ToolFileEdit},
		{"str_replace_editor", event.ToolFileEdit},
		{"apply_patch", event.ToolFileEdit},
		{"grep", event.ToolSearch},
		{"rg", event.ToolSearch},
		{"glob", event.ToolFind},
		{"web_fetch", event.ToolWebFetch},
		{"web_search", event.ToolWebSearch},
		{"task", event.ToolAgent},
		{"Bash", event.ToolShell},
		{"Read", event.ToolFileRead},
		{"Write", event.ToolFileWrite},
		{"Edit", event.ToolFileEdit},
		{"Grep", event.ToolSearch},
		{"Glob", event.ToolFind},
		{"WebFetch", event.ToolWebFetch},
		{"WebSearch", event.ToolWebSearch},
		{"Agent", event.ToolAgent},
		{"Task", event.ToolAgent},
	},
	SplitMCP: splitCopilotMCP,
	Keep: []Renames{{
		{"source", "source"},
		{"reason", "reason"},
		{"initialPrompt", "initial_prompt"},
		{"initial_prompt", "initial_prompt"},
		{"transformedPrompt", "transformed_prompt"},
		{"stopReason", "stop_reason"},
		{"stop_reason", "stop_reason"},
		{"stop_hook_active", "stop_hook_active"},
		{"agentName", "agent_name"},
		{"agent_name", "agent_name"},
		{"agentDisplayName", "agent_display_name"},
		{"agent_display_name", "agent_display_name"},
		{"agentDescription", "agent_description"},
		{"agentId", "agent_id"},
		{"agent_id", "agent_id"},
		{"agentType", "agent_type"},
		{"agent_type", "agent_type"},
		{"parentAgentId", "parent_agent_id"},
		{"parent_agent_id", "parent_agent_id"},
		{"response", "last_assistant_message"},
		{"last_assistant_message", "last_assistant_message"},
		{"errorContext", "error_context"},
		{"error_context", "error_context"},
		{"recoverable", "recoverable"},
		{"trigger", "trigger"},
		{"customInstructions", "custom_instructions"},
		{"custom_instructions", "custom_instructions"},
		{"message", "message"},
		{"title", "title"},
		{"notification_type", "notification_type"},
		{"permissionSuggestions", "permission_suggestions"},
	}},
	Adjust:        adjustCopilot,
	Encode:        encodeCopilot,
	Dialect:       copilotDialect,
	SetInput:      setCopilotInput,
	ProjectDirEnv: []string{"COPILOT_PROJECT_DIR"},
	Timeout:       30 * time.Second, // what copilot_install.go writes
}

// copilotPascal are the PascalCase event names Copilot sends in
// hook_event_name (the VS Code compatible format).
var copilotPascal = []string{
	"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse",
	"PostToolUse", "PostToolUseFailure", "PermissionRequest", "Stop",
	"SubagentStart", "SubagentStop", "ErrorOccurred", "PreCompact",
	"Notification",
}

// copilotEventName reads the event from the few payloads that name it:
// hookName on permissionRequest, hook_event_name in the PascalCase format.
// A notification names itself "Notification" beside camelCase fields; it is
// the camelCase event then. Every other camelCase payload is nameless.
func copilotEventName(p Payload) string {
	if n := p.Get("hookName"); n.Type == gjson.String && n.Str != "" {
		return n.Str
	}
	n := hookEventName(p)
	if n == "Notification" && p.Get("sessionId").Exists() {
		return "notification"
	}
	return n
}

// adjustCopilot reads what the camelCase field paths miss: the session of a
// PascalCase payload, the tool of a PascalCase tool event or of a
// permissionRequest (toolInput, not toolArgs), and errorOccurred's error.
func adjustCopilot(p Payload, spec *Spec, ev *event.Event) {
	if ev.SessionID == "" {
		ev.SessionID = p.Get("session_id").String()
	}
	if ev.TranscriptPath == "" {
		ev.TranscriptPath = p.Get("transcript_path").Str
	}
	if t := ev.Tool; t != nil {
		if t.Native == "" {
			t.Native = p.Get("tool_name").String()
			t.Input = objectOrDecoded(p.Get("tool_input"))
			switch ev.Name {
			case event.AfterToolExecute:
				if r := p.Get("tool_result"); r.Exists() {
					t.Output = []byte(r.Raw)
				}
			case event.ToolUseFailure:
				if e := p.Get("error"); e.Exists() {
					t.Error = []byte(e.Raw)
				}
			}
		}
		if in := p.Get("toolInput"); in.Exists() && !p.Get("toolArgs").Exists() {
			t.Input = objectOrDecoded(in)
		}
	}
	if spec.Canonical == event.ErrorOccurred {
		if e := p.Get("error"); e.Exists() {
			ev.Set("error", []byte(e.Raw))
		}
	}
	if spec.Canonical == event.ToolUseFailure && ev.Tool != nil && ev.Tool.Error == nil {
		ev.Tool.Error = []byte(`""`)
	}
}

// objectOrDecoded is InputObject of a field.
func objectOrDecoded(r gjson.Result) []byte { return InputObject([]byte(r.Raw)) }

// splitCopilotMCP splits an MCP tool name. Tool events name it
// <server>-<tool> and permissionRequest <server>/<tool> (both measured on
// 1.0.102: "my_demo-srv-echo_text", "my_demo-srv/echo_text"). Server and
// tool names may both hold dashes, so the dash form is a best guess: the
// built-in github-mcp-server first, then the last dash when the tail is
// snake_case (most MCP tools: github-mcp-server-get_file_contents), else the
// first dash (kebab-case tools: context7-resolve-library-id). The native
// name is always kept.
func splitCopilotMCP(native string, _ Payload) *event.MCP {
	if server, tool, ok := strings.Cut(native, "/"); ok {
		if server == "" || tool == "" {
			return nil
		}
		return &event.MCP{Server: server, Tool: tool}
	}
	if tool, ok := strings.CutPrefix(native, "github-mcp-server-"); ok && tool != "" {
		return &event.MCP{Server: "github-mcp-server", Tool: tool}
	}
	last := strings.LastIndexByte(native, '-')
	if last <= 0 || last == len(native)-1 {
		return nil
	}
	i := last
	if !strings.Contains(native[last+1:], "_") {
		i = strings.IndexByte(native, '-')
	}
	return &event.MCP{Server: native[:i], Tool: native[i+1:]}
}

// encodeCopilot writes the flat fields Copilot reads, in both formats.
// Nothing at all is "no opinion"; the exit code is always 0 (a non-zero
// preToolUse exit is a denial).
func encodeCopilot(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	o := &wire.Object{}
	switch spec.Canonical {
	case event.BeforeToolExecute:
		d := permission(v) // modifiedArgs was measured with allow
		if d != "" {
			o.Str("permissionDecision", d)
			if v.Reason != "" {
				o.Str("permissionDecisionReason", v.Reason)
			}
		}
		if v.UpdatedInput != nil && d != "deny" {
			o.Raw("modifiedArgs", v.UpdatedInput)
		}
	case event.PermissionRequest:
		switch {
		case v.Stop || v.Decision == decision.Deny:
			o.Str("behavior", "deny")
			if msg := firstNonEmptyString(v.Reason, v.StopReason); msg != "" {
				o.Str("message", msg)
			}
			if v.Stop {
				o.Bool("interrupt", true)
			}
		case v.Decision == decision.Allow:
			o.Str("behavior", "allow")
		}
	case event.AgentStop, event.SubagentStop, event.BeforePrompt:
		// On a stop event a stop is what happens anyway: no block then.
		if v.Decision == decision.Deny && !v.Stop {
			o.Str("decision", "block")
			if v.Reason != "" {
				o.Str("reason", v.Reason)
			}
		}
	}
	if v.Context != "" {
		o.Str("additionalContext", v.Context)
	}
	return JSONOrEmpty(o)
}

// setCopilotInput puts a tool input where the sample payload keeps it:
// toolArgs (as a JSON string when the sample has one), tool_input in the
// PascalCase format, toolInput on permissionRequest.
func setCopilotInput(raw, input []byte) ([]byte, error) {
	for _, k := range []string{"toolArgs", "tool_input", "toolInput"} {
		r := gjson.GetBytes(raw, k)
		if !r.Exists() {
			continue
		}
		if r.Type == gjson.String {
			return sjson.SetBytes(raw, k, string(input))
		}
		return sjson.SetRawBytes(raw, k, input)
	}
	return sjson.SetRawBytes(raw, "toolArgs", input)
}

func firstNonEmptyString(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// copilotDialect is what a hook registered under a camelCase key reads
// (the CLI's own format): no event name but on permissionRequest, an
// epoch-ms timestamp, camelCase keys, and the runtime's tool names and
// arguments (bash's command, view/create/edit's path, create's file_text,
// edit's old_str/new_str).
var copilotDialect = &Dialect{
	Always: Renames{{"timestamp", FromNowMillis}},
	Inputs: []InputKeys{
		{event.ToolFileRead, Renames{{"path", "file_path"}}},
		{event.ToolFileWrite, Renames{{"path", "file_path"}, {"file_text", "content"}}},
		{event.ToolFileEdit, Renames{{"path", "file_path"}, {"old_str", "old_string"}, {"new_str", "new_string"}}},
	},
	MCPName: func(server, tool string) string { return server + "-" + tool },
	Finish: func(doc []byte, spec *Spec, _ *event.Event, _ string, _ []byte) ([]byte, error) {
		if spec.Native == "permissionRequest" {
			// The one camelCase payload that names itself; its input
			// is toolInput.
			doc, _ = sjson.SetBytes(doc, "hookName", spec.Native)
			if in := gjson.GetBytes(doc, "toolArgs"); in.Exists() {
				doc, _ = sjson.DeleteBytes(doc, "toolArgs")
				return sjson.SetRawBytes(doc, "toolInput", []byte(in.Raw))
			}
		}
		return doc, nil
	},
	Read: readCopilot,
}

// readCopilot reads an answer by the CLI's contract (hooks reference,
// "Output"): exit 0 with camelCase JSON; any other exit denies a tool call
// and is a failed hook elsewhere.
func readCopilot(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	var o decision.Output
	if exit != 0 {
		if spec.Canonical == event.BeforeToolExecute {
			o.Decision, o.Reason = decision.Deny, orBlocked(stderr)
			return o, nil
		}
		return o, exitFailed("Copilot CLI", exit, stderr)
	}
	doc, ok := answerObject(stdout)
	if !ok {
		return o, nil
	}
	for _, k := range []string{"decision", "permissionDecision", "behavior"} {
		if d := doc.Get(k); d.Type == gjson.String && d.Str != "" {
			kind, err := nativeKind(d.Str)
			if err != nil {
				return o, fmt.Errorf("%s: %w", k, err)
			}
			o.Decision = max(o.Decision, kind)
		}
	}
	o.Reason = firstNonEmptyString(doc.Get("permissionDecisionReason").Str, doc.Get("reason").Str, doc.Get("message").Str)
	o.UpdatedInput = objectRaw(doc.Get("modifiedArgs"))
	o.Context = doc.Get("additionalContext").Str
	if doc.Get("interrupt").Type == gjson.True {
		f := false
		o.Continue = &f
	}
	return o, nil
}
