package provider

import (
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
)

// VS Code agent hooks, the "Local" harness of GitHub Copilot Chat.
//
// Verified against microsoft/vscode-copilot-chat at 31acd00a (0.42.0,
// 2026-03-29: src/extension/chat/vscode-node/chatHookService.ts,
// src/extension/intents/node/{toolCallingLoop,hookResultProcessor}.ts,
// src/extension/prompt/node/defaultIntentRequestHandler.ts,
// src/extension/tools/common/toolNames.ts), microsoft/vscode
// src/vs/workbench/contrib/chat/common/hooks/hooksExecutionService.ts and
// promptSyntax/hookTypes.ts, and the VS Code docs
// (docs/agent-customization/hooks.md, docs/agents/reference/hooks-reference.md,
// DateApproved 2026-07-29). Newer VS Code labels this reference "Legacy
// Local" and runs new hooks through the Copilot runtime, whose contract is
// Copilot CLI's (see copilot.go); those payloads are detected as Copilot.
//   - payloads carry an ISO timestamp, transcript_path (the extension's
//     storage: .../GitHub.copilot-chat/transcripts/<session>.jsonl), cwd
//     (the command's working directory) and, per event, tool_name,
//     tool_input, tool_use_id, tool_response (a string), prompt, source,
//     stop_hook_active, agent_id, agent_type, trigger. The event and session
//     keys were camelCase (hookEventName, sessionId) until copilot-chat
//     #4011 (2026-02-25) made them hook_event_name and session_id; the docs
//     still show camelCase and VS Code's own HooksExecutionService sends
//     camelCase with the session resource URI as sessionId. Both are read;
//   - tool names are the model-facing ones (run_in_terminal, read_file,
//     create_file, replace_string_in_file, ...; "editFiles" in the docs is
//     a tool-set name, not what hooks see); MCP tools are
//     mcp_<server>_<tool>, the server part lowercased;
//   - answers are Claude-style JSON on stdout: PreToolUse reads
//     hookSpecificOutput.permissionDecision (allow/deny/ask, most
//     restrictive wins), updatedInput (dropped when it fails the tool's
//     schema) and additionalContext; PostToolUse and UserPromptSubmit read a
//     top-level decision:"block" with reason and
//     hookSpecificOutput.additionalContext; SessionStart and SubagentStart
//     read hookSpecificOutput.additionalContext; Stop and SubagentStop read
//     decision and reason INSIDE hookSpecificOutput (toolCallingLoop.ts);
//     copilot-chat before 0.42 read them top-level, so hookshim writes both;
//   - continue:false (or a stopReason) aborts the request on every event
//     except SessionStart and SubagentStart, which ignore it; on Stop it
//     would surface as an error, and the agent stops anyway, so a stop there
//     is written as nothing; systemMessage is shown to the user;
//   - PreCompact runs but its answer is not read;
//   - exit 2 blocks with stderr to the model and other non-zero exits warn:
//     hookshim answers exit 0 with JSON.
//
// The Agent Host (the Copilot runtime harness of newer VS Code and of the
// Agents window) and its toolCalls envelope. Not verified from primary
// source: what of microsoft/vscode could be read here
// (src/vs/platform/agentHost/node/copilot/copilotPluginConverters.ts, stored
// versions of 2026) runs a hook command once per tool call with the Copilot
// SDK's PreToolUseHookInput as JSON (timestamp, cwd, toolName, toolArgs: the
// Copilot CLI shape, see copilot.go), takes the first JSON object on stdout
// as the answer and swallows failures (a crash fails open); it holds no
// "toolCalls". The envelope is known from a third party only:
// Dicklesworthstone/destructive_command_guard (dcg) issues #252 and #322 and
// its src/hook.rs, from a user's captures of VS Code 2026-07/08:
//   - {sessionId, cwd, toolCalls: [{name, args}], ...} on a PreToolUse
//     registration: several tool calls in one hook call, args an object
//     encoded as a JSON string, names such as "powershell" and "bash";
//   - dcg answers it with Claude's hookSpecificOutput.permissionDecision,
//     one decision for the whole envelope (the first call it would block
//     speaks for all), and the user reported that this blocks;
//   - in #322 a PowerShell call reached the hook as tool_name "Bash" with
//     hook_event_name and tool_input.command and nothing else: too little
//     to tell the tool without the --provider install writes; with it,
//     "Bash" is read as the shell (Adjust). That the command is
//     PowerShell's is not said there: telling it from the text is the
//     command reader's job.
//
// hookshim reads the envelope as PreToolUse (when it names no event): each
// call is judged on its own (Calls), the most restrictive decision answers
// for all, in the Claude-style answer above; a rewrite of one call cannot
// be said (the answer names no call) and degrades, and continue:false,
// which nothing known says the envelope's reader honours, denies instead.
// The runtime's own tool names (Copilot CLI's: view, create, edit, ...)
// are mapped too, since the Agent Host runs that runtime.
var VSCode = &Provider{
	ID:       "vscode-copilot",
	Name:     "VS Code (Copilot Chat agent hooks)",
	Verified: "from source: microsoft/vscode-copilot-chat 0.42.0 and the VS Code docs (Local harness); the Agent Host's toolCalls envelope only from a third party (dcg, issues #252 and #322): each call judged, one answer for all (deny, ask, allow, context, message; no rewrite, no stop)",
	Install:  vscodeInstall,
	Signals: []Signal{
		// Only the Agent Host sends several calls at once (dcg #252).
		Array("toolCalls", 20),
		Has("hookEventName", 8),
		{Weight: 12, desc: `transcript_path is under "/GitHub.copilot-chat/transcripts/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/GitHub.copilot-chat/transcripts/")
		}},
		{Weight: 6, desc: "ISO timestamp on a tool event with tool_use_id", test: func(p Payload) bool {
			return isISOTime(p.Get("timestamp").Str) && p.Get("tool_use_id").Exists() &&
				(p.Get("hook_event_name").Exists() || p.Get("hookEventName").Exists())
		}},
		Prefixed("sessionId", "vscode-chat-session:", 3),
		OneOf("tool_name", 3, "run_in_terminal", "read_file", "create_file", "replace_string_in_file",
			"multi_replace_string_in_file", "insert_edit_into_file", "grep_search", "file_search",
			"semantic_search", "fetch_webpage", "runSubagent", "list_dir", "get_errors", "manage_todo_list"),
		Has("permission_mode", -3),
		// Copilot CLI runs VS Code's entries too (same folders), with its
		// VS Code compatible payload, which has neither.
		{Weight: -4, desc: "no transcript_path and no tool_use_id", test: func(p Payload) bool {
			return !p.Get("transcript_path").Exists() && !p.Get("tool_use_id").Exists()
		}},
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, CanContext | CanMessage},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext | CanStop | CanMessage},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanContext | CanRewrite | CanStop | CanMessage},
		{"PostToolUse", event.AfterToolExecute, CanDeny | CanContext | CanStop | CanMessage},
		{"PreCompact", event.BeforeCompact, 0},
		{"SubagentStart", event.SubagentStart, CanContext | CanMessage},
		{"SubagentStop", event.SubagentStop, CanDeny | CanStop | CanMessage},
		{"Stop", event.AgentStop, CanDeny | CanStop | CanMessage},
	},
	EventName: func(p Payload) string {
		if n := hookEventName(p); n != "" {
			return n
		}
		if n := p.Get("hookEventName").Str; n != "" {
			return n
		}
		if p.Get("toolCalls").Exists() {
			// The Agent Host's envelope, sent before the calls run.
			return "PreToolUse"
		}
		return ""
	},
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "cwd",
		Transcript: "transcript_path",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "tool_use_id",
		ToolOutput: "tool_response",
		Prompt:     "prompt",
	},
	Tools: Renames{
		{"run_in_terminal", event.ToolShell},
		{"read_file", event.ToolFileRead},
		{"view_image", event.ToolFileRead},
		{"create_file", event.ToolFileWrite},
		{"replace_string_in_file", event.ToolFileEdit},
		{"multi_replace_string_in_file", event.ToolFileEdit},
		{"insert_edit_into_file", event.ToolFileEdit},
		{"apply_patch", event.ToolFileEdit},
		{"edit_notebook_file", event.ToolFileEdit},
		{"grep_search", event.ToolSearch},
		{"semantic_search", event.ToolSearch},
		{"file_search", event.ToolFind},
		{"fetch_webpage", event.ToolWebFetch},
		{"runSubagent", event.ToolAgent},
		{"search_subagent", event.ToolAgent},
		{"execution_subagent", event.ToolAgent},
	},
	Calls: Calls{
		List: "toolCalls", Name: "name", Input: "args",
		Tools:      vscodeAgentHostTools,
		PowerShell: []string{"powershell", "pwsh"},
		Can:        CanDeny | CanAsk | CanAllow | CanContext | CanMessage,
	},
	// VS Code lowercases the server label and turns other characters into
	// "_" (McpPrefixGenerator), so a server whose label has an underscore is
	// split too early; the native name is kept either way.
	SplitMCP: splitSingleUnderscore,
	Keep: []Renames{{
		{"source", "source"},
		{"stop_hook_active", "stop_hook_active"},
		{"agent_id", "agent_id"},
		{"agent_type", "agent_type"},
		{"trigger", "trigger"},
	}},
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		if ev.SessionID == "" {
			ev.SessionID = p.Get("sessionId").Str
		}
		if t := ev.Tool; t != nil && t.Name == "" {
			// The Agent Host's one-call shape labels a shell call "Bash"
			// (dcg #322): a name of its list, capitalised.
			if canonical, ok := vscodeAgentHostTools.Get(strings.ToLower(t.Native)); ok {
				t.Name = canonical
			}
		}
	},
	Encode:  encodeVSCode,
	Dialect: vscodeDialect,
	Timeout: 30 * time.Second, // what vscode_install.go writes
}

// encodeVSCode is the Claude dialect, except for Stop and SubagentStop,
// whose block lives in hookSpecificOutput (written top-level too for
// copilot-chat before 0.42), and which never send continue:false.
func encodeVSCode(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil || (spec.Canonical != event.AgentStop && spec.Canonical != event.SubagentStop) {
		return claudeStyle{explicitAllow: true}.encode(spec, v)
	}
	top := &wire.Object{}
	if v.Decision == decision.Deny && !v.Stop {
		hso := &wire.Object{}
		hso.Str("hookEventName", spec.Native)
		hso.Str("decision", "block")
		hso.Str("reason", v.Reason)
		top.Str("decision", "block")
		top.Str("reason", v.Reason)
		top.Obj("hookSpecificOutput", hso)
	}
	if v.SystemMessage != "" {
		top.Str("systemMessage", v.SystemMessage)
	}
	return JSONOrEmpty(top)
}

// vscodeDialect is what a VS Code agent hook reads: Claude's keys with
// VS Code's tool names and camelCase input keys (filePath, oldString,
// newString), and Claude-style answers.
var vscodeDialect = &Dialect{
	EventKey: "hook_event_name",
	Inputs: []InputKeys{
		{event.ToolFileRead, Renames{{"filePath", "file_path"}}},
		{event.ToolFileWrite, Renames{{"filePath", "file_path"}}},
		{event.ToolFileEdit, Renames{{"filePath", "file_path"}, {"oldString", "old_string"}, {"newString", "new_string"}}},
	},
	MCPName: func(server, tool string) string { return "mcp_" + server + "_" + tool },
	Read:    readVSCode,
}

// vscodeAgentHostTools are the tool names of the Agent Host's calls: those
// dcg reads (#252, #322) and the Copilot runtime's, which the Agent Host
// runs. They are kept apart from Tools, so that a hook written for VS Code
// still sees the Local harness's names.
var vscodeAgentHostTools = Renames{
	{"bash", event.ToolShell},
	{"powershell", event.ToolShell},
	{"pwsh", event.ToolShell},
	{"view", event.ToolFileRead},
	{"create", event.ToolFileWrite},
	{"edit", event.ToolFileEdit},
	{"str_replace_editor", event.ToolFileEdit},
	{"grep", event.ToolSearch},
	{"glob", event.ToolFind},
	{"web_fetch", event.ToolWebFetch},
	{"task", event.ToolAgent},
}

// readVSCode reads a VS Code hook's answer (claudeReader).
func readVSCode(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "VS Code"}.read(spec, exit, stdout, stderr)
}
