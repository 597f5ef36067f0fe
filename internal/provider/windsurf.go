package provider

import (
	"errors"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Windsurf Cascade hooks (Windsurf IDE and its JetBrains plugin; the same
// page is served for Devin Desktop's Cascade agent).
//
// Source: docs.windsurf.com/windsurf/cascade/hooks (Cascade Hooks, beta;
// re-hosted at docs.devin.ai/desktop/cascade/hooks), read 2026-11; see
// shared/reference/cursor-copilot-kiro-windsurf-cline.md §5:
//   - hooks.json maps snake_case event names to commands; there is no
//     matcher and no timeout, so every read, write and command runs
//     hookshim, which must be quick;
//   - stdin is {agent_action_name, trajectory_id, execution_id, timestamp,
//     tool_info}; the event name is agent_action_name and the event itself
//     says what the tool is (read_code, write_code, run_command,
//     mcp_tool_use): there is no tool name field. hookshim builds the tool
//     and a tool_input (file_path / edits, command / cwd, the MCP
//     arguments) so that policies see one shape for every tool;
//   - answers are exit codes only: exit 2 is a "blocking error" whose stderr
//     the agent sees, and blocks the action on the five pre_ events; any
//     other exit code lets it proceed. stdout and stderr are shown to the
//     user only with show_output; no JSON is read and nothing reaches the
//     model otherwise, so there is no context channel, no ask, no rewrite;
//   - pre_read_code's file_path may be a directory (recursive reads);
//   - post_cascade_response(_with_transcript) run asynchronously; the
//     transcript variant gives a transcript_path instead of the response;
//   - post_setup_worktree runs in the new worktree, with
//     ROOT_WORKSPACE_PATH set to the original workspace.
//
// Hooks run in the workspace root unless working_directory says otherwise;
// the payload carries a directory only for commands (tool_info.cwd) and, in
// some builds, at the top level (cwd), so those are the project directory
// hookshim can see.
var Windsurf = &Provider{
	ID:      "windsurf",
	Name:    "Windsurf",
	Install: windsurfInstall,
	Signals: []Signal{
		Has("agent_action_name", 10),
		Object("tool_info", 3),
		Has("trajectory_id", 3),
		Has("execution_id", 2),
		EnvSet("ROOT_WORKSPACE_PATH", 1),
	},
	Events: []Spec{
		{"pre_read_code", event.BeforeToolExecute, CanDeny},
		{"post_read_code", event.AfterToolExecute, 0},
		{"pre_write_code", event.BeforeToolExecute, CanDeny},
		{"post_write_code", event.AfterToolExecute, 0},
		{"pre_run_command", event.BeforeToolExecute, CanDeny},
		{"post_run_command", event.AfterToolExecute, 0},
		{"pre_mcp_tool_use", event.BeforeToolExecute, CanDeny},
		{"post_mcp_tool_use", event.AfterToolExecute, 0},
		{"pre_user_prompt", event.BeforePrompt, CanDeny},
		// The Hook Interchange names (events.md §1, §3): the response is
		// the end of the agent's turn; its transcript variant and the
		// worktree setup are Windsurf's own events.
		{"post_cascade_response", event.AgentStop, 0},
		{"post_cascade_response_with_transcript", event.WindsurfTranscriptResponse, 0},
		{"post_setup_worktree", event.WorktreeSetup, 0},
	},
	EventName: func(p Payload) string { return p.Get("agent_action_name").Str },
	Fields: Fields{
		SessionID: "trajectory_id",
		Cwd:       "cwd",
		Model:     "model_name",
		Prompt:    "tool_info.user_prompt",
	},
	Keep: []Renames{{
		{"execution_id", "execution_id"},
		{"tool_info.response", "response"},
		{"tool_info.worktree_path", "worktree_path"},
		{"tool_info.root_workspace_path", "root_workspace_path"},
	}},
	Adjust:        adjustWindsurf,
	Encode:        encodeWindsurf,
	Dialect:       windsurfDialect,
	SetInput:      setWindsurfInput,
	ProjectDirEnv: []string{"ROOT_WORKSPACE_PATH"},
}

// windsurfTool is the tool each split event is about, by the part of the
// event name after pre_/post_.
var windsurfTool = Renames{
	{"read_code", event.ToolFileRead},
	{"write_code", event.ToolFileEdit},
	{"run_command", event.ToolShell},
	{"mcp_tool_use", ""}, // named mcp__<server>__<tool>
}

// windsurfAction returns the tool part of a split event name, or "".
func windsurfAction(native string) string {
	for _, prefix := range []string{"pre_", "post_"} {
		if len(native) > len(prefix) && native[:len(prefix)] == prefix {
			if _, ok := windsurfTool.Get(native[len(prefix):]); ok {
				return native[len(prefix):]
			}
		}
	}
	return ""
}

func adjustWindsurf(p Payload, spec *Spec, ev *event.Event) {
	info := p.Get("tool_info")
	if ev.Cwd == "" {
		ev.Cwd = info.Get("cwd").Str
	}
	if ev.Cwd == "" {
		// post_setup_worktree runs in the new worktree.
		ev.Cwd = info.Get("worktree_path").Str
	}
	if ev.Cwd == "" && p.Env != nil {
		// Only commands say where they run. The hook itself runs in the
		// workspace root (or its working_directory), through a shell that
		// sets PWD to it: without it the project's config is not found.
		ev.Cwd = p.Env("PWD")
	}
	if tp := info.Get("transcript_path").Str; tp != "" {
		ev.TranscriptPath = tp
	}
	action := windsurfAction(spec.Native)
	if action == "" {
		return
	}
	obj := func(pairs ...string) []byte {
		o := &wire.Object{}
		for i := 0; i+1 < len(pairs); i += 2 {
			if r := info.Get(pairs[i+1]); r.Exists() {
				o.Raw(pairs[i], []byte(r.Raw))
			}
		}
		return o.Bytes()
	}
	name, _ := windsurfTool.Get(action)
	t := &event.Tool{Name: name, Native: action}
	switch action {
	case "read_code":
		t.Input = obj("file_path", "file_path")
		t.FilePath = info.Get("file_path").Str
		if c := info.Get("content"); c.Exists() {
			t.Output = []byte(c.Raw)
		}
	case "write_code":
		// One event for creating and editing a file: a file_write
		// matcher must see it as surely as a file_edit one.
		t.Also = []string{event.ToolFileWrite}
		t.Input = obj("file_path", "file_path", "edits", "edits")
		t.FilePath = info.Get("file_path").Str
	case "run_command":
		t.Input = obj("command", "command_line", "cwd", "cwd")
		t.Command = info.Get("command_line").Str
		if o := info.Get("output"); o.Exists() {
			t.Output = []byte(o.Raw)
		}
	case "mcp_tool_use":
		server, tool := info.Get("mcp_server_name").Str, info.Get("mcp_tool_name").Str
		t.MCP = &event.MCP{Server: server, Tool: tool}
		t.Name = event.MCPName(server, tool)
		t.Input = []byte("{}")
		if a := info.Get("mcp_tool_arguments"); a.IsObject() {
			t.Input = []byte(a.Raw)
		}
		if r := info.Get("mcp_result"); r.Exists() {
			t.Output = []byte(r.Raw)
		}
	}
	ev.Tool = t
}

// encodeWindsurf answers with exit codes only: Cascade reads no JSON, and
// anything printed is at most shown to the user.
func encodeWindsurf(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	if v.Decision == decision.Deny && spec.Can.Has(CanDeny) {
		return Answer{Stderr: oneLineEnd(v.Reason), Exit: 2}
	}
	return Answer{}
}

var errNoToolInput = errors.New("this sample is not about a tool: it has no tool input to replace")

// setWindsurfInput puts a canonical-shaped tool input back into tool_info.
func setWindsurfInput(raw, input []byte) ([]byte, error) {
	in := gjson.ParseBytes(input)
	var err error
	set := func(path string, r gjson.Result) {
		if err == nil && r.Exists() {
			raw, err = sjson.SetRawBytes(raw, path, []byte(r.Raw))
		}
	}
	switch windsurfAction(gjson.GetBytes(raw, "agent_action_name").Str) {
	case "run_command":
		cmd := in.Get("command")
		if !cmd.Exists() {
			cmd = in.Get("command_line")
		}
		set("tool_info.command_line", cmd)
		set("tool_info.cwd", in.Get("cwd"))
	case "read_code", "write_code":
		set("tool_info.file_path", in.Get("file_path"))
		set("tool_info.edits", in.Get("edits"))
	case "mcp_tool_use":
		raw, err = sjson.SetRawBytes(raw, "tool_info.mcp_tool_arguments", input)
	default:
		return nil, errNoToolInput
	}
	return raw, err
}

// windsurfDialect is what a Cascade hook reads: one event per kind of
// tool (windsurfTool backwards), everything about the action under
// tool_info, the workspace root in ROOT_WORKSPACE_PATH.
var windsurfDialect = &Dialect{
	EventKey: "agent_action_name",
	Pick:     pickWindsurf,
	Always:   Renames{{"timestamp", FromNow}},
	Finish:   finishWindsurf,
	Read:     readWindsurf,
}

// pickWindsurf names the split event of a tool call; a tool that is not
// one of the four kinds has none.
func pickWindsurf(ev *event.Event, name event.Name) (string, bool) {
	prefix := "pre_"
	switch name {
	case event.BeforeToolExecute:
	case event.AfterToolExecute, event.ToolUseFailure:
		prefix = "post_"
	default:
		return "", false // the first of its name, or none
	}
	if ev.Tool == nil {
		return "", true
	}
	if ev.Tool.MCP != nil {
		return prefix + "mcp_tool_use", true
	}
	tool := ev.Tool.Name
	if tool == event.ToolFileWrite {
		tool = event.ToolFileEdit // write_code does both
	}
	// mcp_tool_use names no tool: an empty name must not find it.
	if action, ok := windsurfTool.From(tool); ok && tool != "" {
		return prefix + action, true
	}
	return "", true
}

// finishWindsurf writes tool_info for a tool event.
func finishWindsurf(doc []byte, spec *Spec, ev *event.Event, _ string, input []byte) ([]byte, error) {
	t := ev.Tool
	if t == nil {
		return doc, nil
	}
	in := gjson.ParseBytes(input)
	o := &wire.Object{}
	switch windsurfAction(spec.Native) {
	case "read_code":
		o.Str("file_path", t.FilePath)
	case "write_code":
		o.Str("file_path", t.FilePath)
		edit := &wire.Object{}
		if c := in.Get("content"); c.Exists() {
			edit.Str("old_string", "").Raw("new_string", []byte(c.Raw))
		} else {
			edit.Str("old_string", in.Get("old_string").Str).Str("new_string", in.Get("new_string").Str)
		}
		o.Raw("edits", append(append([]byte("["), edit.Bytes()...), ']'))
	case "run_command":
		o.Str("command_line", t.Command)
		if ev.Cwd != "" {
			o.Str("cwd", ev.Cwd)
		}
	case "mcp_tool_use":
		o.Str("mcp_server_name", t.MCP.Server).Str("mcp_tool_name", t.MCP.Tool).Raw("mcp_tool_arguments", input)
		if t.Output != nil {
			o.Raw("mcp_result", t.Output)
		}
	}
	if o.Len() == 0 {
		return doc, nil
	}
	return sjson.SetRawBytes(doc, "tool_info", o.Bytes())
}

// readWindsurf reads an answer as Cascade does: exit 2 blocks with stderr
// as the reason; nothing printed is read.
func readWindsurf(_ *Spec, exit int, _ []byte, stderr string) (decision.Output, error) {
	var o decision.Output
	switch exit {
	case 0:
	case 2:
		o.Decision, o.Reason = decision.Deny, orBlocked(stderr)
	default:
		return o, exitFailed("Windsurf", exit, stderr)
	}
	return o, nil
}
