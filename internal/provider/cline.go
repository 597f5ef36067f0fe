package provider

import (
	"strings"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Cline (VS Code extension and CLI).
//
// Verified against the Cline CLI 3.0.65 (npm cline) run headless with a
// mock model by make e2e (payloads and answers recorded from the real
// client, see testdata/payloads/cline/README.md), and cline/cline at 21cb8d25
// (2026-08-22; extension 4.1.13, CLI 3.0.56): apps/vscode/proto/cline/hooks.proto,
// apps/vscode/src/core/hooks/hook-factory.ts, apps/vscode/src/sdk/hooks-adapter.ts,
// sdk/packages/core/src/hooks/{hook-file-hooks,hook-file-config,subprocess,subprocess-runner}.ts,
// sdk/packages/shared/src/hooks/events.ts, sdk/packages/agents/src/agent-runtime.ts
// and .clinerules/hooks/README.md:
//   - a hook is an executable file named after its event; hookshim is that
//     executable (or a script calling it), so the event comes from the
//     payload's hookName;
//   - the extension sends the protobuf-JSON HookInput: clineVersion,
//     hookName (TaskStart, PreToolUse...), timestamp (epoch ms as a
//     string), taskId, workspaceRoots, userId, model {provider, slug} and
//     one data block (preToolUse {toolName, parameters}, postToolUse {...,
//     result, success, executionTimeMs}, userPromptSubmit {prompt,
//     attachments}, taskStart {taskMetadata}...). parameters is a
//     map<string,string>: non-string tool arguments arrive JSON-encoded;
//   - the SDK runtime (the CLI) names events by runtime name (tool_call,
//     tool_result, prompt_submit, agent_start, agent_end, agent_abort,
//     agent_error, agent_resume, session_shutdown) although the files keep
//     the old names (PreToolUse...), and sends an ISO timestamp, an empty
//     clineVersion (measured), agent_id, parent_agent_id, iteration, the
//     tool as tool_call {id, name, input} or tool_result {id, name, input,
//     output, error, durationMs...} beside the legacy blocks;
//   - tool names: the extension before 4.x used execute_command,
//     read_file, write_to_file, replace_in_file, search_files, list_files,
//     use_mcp_tool {server_name, tool_name, arguments}...; the SDK runtime
//     (extension 4.x and the CLI) uses run_commands {commands: [...]},
//     read_files, editor, apply_patch, search_codebase, fetch_web_content,
//     spawn_agent and <server>__<tool> for MCP;
//   - the answer is stdout JSON {cancel, contextModification, errorMessage},
//     honoured whatever the exit code; without JSON and a zero exit the
//     call goes ahead. cancel:true does not skip one tool: it stops the
//     whole run (ControlledStopError; measured: the tool did not run and
//     the run ended "aborted"), with errorMessage as the reason, which
//     reaches neither the model nor the CLI's output (3.0.65: the SDK maps
//     a file hook's answer to stop/appendContext/input only, never to the
//     runtime's skip). It is the only block Cline has, so a denial cancels
//     the task;
//   - contextModification is injected into the next model request (as a
//     <hook_context source="PostToolUse"> user message: measured) only on
//     PreToolUse and PostToolUse (4.1.13 drops it on TaskStart and
//     UserPromptSubmit, which honour cancel only); errorMessage without
//     cancel is injected as context by the SDK, so hookshim writes it only
//     with cancel;
//   - the SDK's tool_call also takes overrideInput (a replacement input);
//     the extension adapter ignores it;
//   - in the SDK runtime only tool_call and tool_result are awaited; every
//     other event is fire-and-forget and its answer is not read; the
//     extension does not run TaskResume, PreCompact or Notification hooks.
var Cline = &Provider{
	ID:       "cline",
	Name:     "Cline",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  clineInstall,
	Signals: []Signal{
		Has("clineVersion", 10),
		OneOf("hookName", 6, "TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "PreToolUse",
			"PostToolUse", "UserPromptSubmit", "PreCompact", "Notification", "agent_start", "agent_resume",
			"agent_abort", "agent_end", "agent_error", "tool_call", "tool_result", "prompt_submit",
			"pre_compact", "session_shutdown"),
		Has("taskId", 2),
		Array("workspaceRoots", 2),
	},
	Events: []Spec{
		{"TaskStart", event.SessionStart, CanStop},
		{"TaskResume", event.SessionStart, 0},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanStop},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanContext | CanStop},
		{"PostToolUse", event.AfterToolExecute, CanContext | CanStop},
		{"TaskComplete", event.AgentStop, 0},
		{"TaskCancel", event.Interrupt, 0},
		{"PreCompact", event.BeforeCompact, 0},
		{"Notification", event.Notification, 0},
		{"agent_start", event.SessionStart, 0},
		{"agent_resume", event.SessionStart, 0},
		{"prompt_submit", event.BeforePrompt, 0},
		{"tool_call", event.BeforeToolExecute, CanDeny | CanContext | CanRewrite | CanStop},
		{"tool_result", event.AfterToolExecute, CanContext | CanStop},
		{"agent_end", event.AgentStop, 0},
		{"agent_abort", event.Interrupt, 0},
		{"agent_error", event.ErrorOccurred, 0},
		{"pre_compact", event.BeforeCompact, 0},
		{"session_shutdown", event.SessionEnd, 0},
	},
	EventName: func(p Payload) string { return p.Get("hookName").Str },
	// The tool fields move with the event (preToolUse, postToolUse,
	// tool_call, tool_result): adjustCline reads them.
	Fields: Fields{
		SessionID: "taskId",
		Cwd:       "workspaceRoots.0",
		Model:     "model.slug",
		Prompt:    "userPromptSubmit.prompt",
	},
	Tools: Renames{
		{"execute_command", event.ToolShell},
		{"run_commands", event.ToolShell},
		{"read_file", event.ToolFileRead},
		{"read_files", event.ToolFileRead},
		{"write_to_file", event.ToolFileWrite},
		// editor first: a dialect handler gets it for an edit, with
		// path/old_text/new_text (replace_in_file takes a diff).
		{"editor", event.ToolFileEdit},
		{"replace_in_file", event.ToolFileEdit},
		{"apply_patch", event.ToolFileEdit},
		{"search_files", event.ToolSearch},
		{"search_codebase", event.ToolSearch},
		{"list_files", event.ToolFind},
		{"web_fetch", event.ToolWebFetch},
		{"fetch_web_content", event.ToolWebFetch},
		{"web_search", event.ToolWebSearch},
		{"new_task", event.ToolAgent},
		{"use_subagents", event.ToolAgent},
		{"spawn_agent", event.ToolAgent},
	},
	// The SDK names MCP tools <server>__<tool> (defaultMcpToolNameTransform);
	// use_mcp_tool is split in adjustCline from its arguments.
	SplitMCP: func(native string, _ Payload) *event.MCP {
		server, tool, ok := strings.Cut(native, "__")
		if !ok || server == "" || tool == "" {
			return nil
		}
		return &event.MCP{Server: server, Tool: tool}
	},
	Keep: []Renames{{
		{"clineVersion", "cline_version"},
		{"taskStart.taskMetadata", "task_metadata"},
		{"taskResume.taskMetadata", "task_metadata"},
		{"taskResume.previousState", "previous_state"},
		{"taskCancel.taskMetadata", "task_metadata"},
		{"taskComplete.taskMetadata", "task_metadata"},
		{"userPromptSubmit.attachments", "attachments"},
		{"notification", "notification"},
		{"preCompact", "pre_compact"},
		{"agent_id", "agent_id"},
		{"parent_agent_id", "parent_agent_id"},
		{"iteration", "iteration"},
		{"reason", "reason"},
		{"turn", "turn"},
	}},
	Adjust:    adjustCline,
	VersionAt: "clineVersion",
	Encode:    encodeCline,
	Dialect:   clineDialect,
	SetInput:  setClineInput,
}

// adjustCline builds the tool from whichever block the payload carries:
// the SDK's tool_call/tool_result (input as an object), else the
// extension's preToolUse/postToolUse (parameters as a string map).
func adjustCline(p Payload, spec *Spec, ev *event.Event) {
	if spec.Canonical == event.ErrorOccurred {
		if e := p.Get("error"); e.Exists() {
			ev.Set("error", []byte(e.Raw))
		}
	}
	t := ev.Tool
	if t == nil {
		return
	}
	legacy := p.Get("preToolUse")
	sdk := p.Get("tool_call")
	if spec.Canonical == event.AfterToolExecute {
		legacy = p.Get("postToolUse")
		sdk = p.Get("tool_result")
	}
	t.Native = legacy.Get("toolName").String()
	if n := sdk.Get("name"); n.Type == gjson.String {
		t.Native = n.Str
	}
	t.CallID = sdk.Get("id").String()
	if in := sdk.Get("input"); in.IsObject() {
		t.Input = []byte(in.Raw)
	} else if params := legacy.Get("parameters"); params.IsObject() {
		t.Input = []byte(params.Raw)
	}
	in := gjson.ParseBytes(t.Input)
	if spec.Canonical == event.AfterToolExecute {
		failed := false
		if sdk.Exists() {
			if e := sdk.Get("error"); e.Exists() && e.Type != gjson.Null {
				failed = true
				t.Error = []byte(e.Raw)
			} else if o := sdk.Get("output"); o.Exists() {
				t.Output = []byte(o.Raw)
			}
		} else {
			r := legacy.Get("result")
			if legacy.Get("success").Type == gjson.False {
				failed = true
				t.Error = []byte(orEmptyString(r.Raw))
			} else if r.Exists() {
				t.Output = []byte(r.Raw)
			}
		}
		if failed {
			ev.Name = event.ToolUseFailure
			t.Output = nil
		}
	}
	switch t.Native {
	case "run_commands":
		t.Command = clineCommands(in.Get("commands"))
	case "use_mcp_tool":
		if server, tool := in.Get("server_name").Str, in.Get("tool_name").Str; server != "" && tool != "" {
			t.MCP = &event.MCP{Server: server, Tool: tool}
			t.Name = event.MCPName(server, tool)
		}
	}
}

// clineCommands is run_commands' command list as one line for policies:
// entries are strings or {command, args}, and the extension's string map
// carries the list JSON-encoded.
func clineCommands(r gjson.Result) string {
	r = stringOrDecoded(r)
	if r.Type == gjson.String {
		return r.Str
	}
	var parts []string
	r.ForEach(func(_, c gjson.Result) bool {
		switch {
		case c.Type == gjson.String:
			parts = append(parts, c.Str)
		case c.IsObject():
			cmd := c.Get("command").Str
			c.Get("args").ForEach(func(_, a gjson.Result) bool {
				cmd += " " + a.String()
				return true
			})
			parts = append(parts, cmd)
		}
		return true
	})
	return strings.Join(parts, "; ")
}

// stringOrDecoded decodes a JSON string that holds an array or object (a
// string-map parameter); anything else is returned as it is.
func stringOrDecoded(r gjson.Result) gjson.Result {
	if r.Type == gjson.String {
		if s := strings.TrimSpace(r.Str); (strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{")) && gjson.Valid(s) {
			return gjson.ParseBytes(LastWins([]byte(s)))
		}
	}
	return r
}

func orEmptyString(raw string) string {
	if raw == "" {
		return `""`
	}
	return raw
}

// encodeCline always prints the documented object: {"cancel":false} is
// the explicit "go ahead". A denial or a stop cancels the run with the
// reason; context rides only on an answer that does not cancel.
func encodeCline(spec *Spec, v *decision.Verdict) Answer {
	o := &wire.Object{}
	cancel := spec != nil && (v.Decision == decision.Deny || v.Stop)
	o.Bool("cancel", cancel)
	if cancel {
		msg := v.Reason
		if v.Decision != decision.Deny || msg == "" {
			msg = firstNonEmptyString(v.StopReason, msg)
		}
		if msg != "" {
			o.Str("errorMessage", msg)
		}
		return JSON(o)
	}
	if spec != nil && v.Context != "" {
		o.Str("contextModification", v.Context)
	}
	if spec != nil && v.UpdatedInput != nil {
		o.Raw("overrideInput", v.UpdatedInput)
	}
	return JSON(o)
}

// setClineInput puts a tool input into a sample payload: tool_call.input
// (SDK) and the legacy parameters string map, whichever the sample has.
func setClineInput(raw, input []byte) ([]byte, error) {
	in := gjson.ParseBytes(input)
	params := &wire.Object{}
	in.ForEach(func(k, v gjson.Result) bool {
		if v.Type == gjson.String {
			params.Str(k.String(), v.Str)
		} else {
			params.Str(k.String(), v.Raw)
		}
		return true
	})
	var err error
	out := raw
	for _, k := range []string{"tool_call.input", "tool_result.input"} {
		if gjson.GetBytes(out, k).Exists() {
			if out, err = sjson.SetRawBytes(out, k, input); err != nil {
				return nil, err
			}
		}
	}
	set := false
	for _, k := range []string{"preToolUse.parameters", "postToolUse.parameters"} {
		if gjson.GetBytes(out, k).Exists() {
			if out, err = sjson.SetRawBytes(out, k, params.Bytes()); err != nil {
				return nil, err
			}
			set = true
		}
	}
	if !set && !gjson.GetBytes(out, "tool_call").Exists() && !gjson.GetBytes(out, "tool_result").Exists() {
		return sjson.SetRawBytes(out, "preToolUse.parameters", params.Bytes())
	}
	return out, nil
}

// clineDialect is what a hook script of the Cline extension reads (the
// first spelling of each event in Events): camelCase ids, the tool under
// preToolUse/postToolUse with its parameters as a map of strings.
var clineDialect = &Dialect{
	EventKey: "hookName",
	Always: Renames{
		{"clineVersion", "cline_version"},
		{"timestamp", FromNowMillisStr},
	},
	Inputs: []InputKeys{
		{event.ToolFileRead, Renames{{"path", "file_path"}}},
		{event.ToolFileWrite, Renames{{"path", "file_path"}}},
		{event.ToolFileEdit, Renames{{"path", "file_path"}, {"old_text", "old_string"}, {"new_text", "new_string"}}},
	},
	MCPName: func(server, tool string) string { return server + "__" + tool },
	Finish:  finishCline,
	Read:    readCline,
}

// finishCline writes the tool block of a tool event; parameters are
// strings, as the extension sends them.
func finishCline(doc []byte, spec *Spec, ev *event.Event, name string, input []byte) ([]byte, error) {
	t := ev.Tool
	if t == nil {
		return doc, nil
	}
	key := "preToolUse"
	if spec.Canonical != event.BeforeToolExecute {
		key = "postToolUse"
	}
	params := &wire.Object{}
	gjson.ParseBytes(input).ForEach(func(k, v gjson.Result) bool {
		if v.Type == gjson.String {
			params.Str(k.Str, v.Str)
		} else {
			params.Str(k.Str, v.Raw)
		}
		return true
	})
	block := (&wire.Object{}).Str("toolName", name).Obj("parameters", params)
	switch {
	case t.Error != nil:
		block.Raw("result", t.Error).Bool("success", false)
	case t.Output != nil:
		block.Raw("result", t.Output).Bool("success", true)
	}
	return sjson.SetRawBytes(doc, key, block.Bytes())
}

// readCline reads the documented answer: cancel ends the task with
// errorMessage, contextModification is added for the model. A failed
// hook does not block (exit 2 included).
func readCline(_ *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	var o decision.Output
	if exit != 0 {
		return o, exitFailed("Cline", exit, stderr)
	}
	doc, ok := answerObject(stdout)
	if !ok {
		return o, nil
	}
	if doc.Get("cancel").Type == gjson.True {
		f := false
		o.Decision, o.Continue = decision.Deny, &f
		o.Reason = orBlocked(doc.Get("errorMessage").Str)
	}
	o.Context = doc.Get("contextModification").Str
	return o, nil
}
