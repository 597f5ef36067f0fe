package provider

import (
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Kiro (kiro-cli and the Kiro IDE).
//
// Two hook dialects reach the same command, and this one provider speaks
// both; the payload's hook_event_name says which:
//   - CLI v2 agent hooks, embedded in .kiro/agents/*.json: camelCase
//     agentSpawn, userPromptSubmit, preToolUse, postToolUse, stop, with
//     timeout_ms (default 30000). Verified against the open-source ancestor
//     aws/amazon-q-developer-cli at 15cc8f3c (2026-04-23):
//     crates/chat-cli/src/cli/chat/cli/hooks.rs builds the stdin as
//     {hook_event_name, cwd} plus prompt (prompt hooks; also in env
//     USER_PROMPT) and tool_name/tool_input/tool_response (tool hooks);
//     crates/chat-cli/src/cli/chat/mod.rs blocks a tool only on exit 2 of a
//     preToolUse hook, with stderr as the tool's error result, and reports
//     postToolUse results as {success: true, result: [...]} or
//     {success: false, error: [...]}; conversation.rs adds the stdout of
//     agentSpawn and userPromptSubmit hooks (exit 0) to the model's context.
//     Current docs (kiro.dev/docs/cli/hooks, 2.x reference) say the same and
//     add session_id; builtin tools appear under their canonical names
//     (execute_bash, fs_read, fs_write, use_aws...) or aliases (shell, read,
//     write, aws), MCP tools as @server/tool.
//   - v1 hook files, .kiro/hooks/*.json {"version":"v1"} (Kiro IDE 1.x and
//     kiro-cli v3, kiro.dev/docs/cli/v3/hooks): PascalCase SessionStart,
//     UserPromptSubmit, PreToolUse, PostToolUse, Stop, PreTaskExec,
//     PostTaskExec, PostFileCreate, PostFileSave, PostFileDelete, Manual;
//     timeout in seconds. Only PreToolUse, PreTaskExec and UserPromptSubmit
//     can block. Payloads follow the IDE captures of 1.0.165-1.2.37
//     (awslabs/aidlc-workflows docs/reference/kiro-ide-hook-payload.md):
//     {session_id: "sess_…", hook_event_name, cwd, tool_name, tool_input,
//     tool_response}; the IDE's stdout reaches the agent only on SessionStart
//     and UserPromptSubmit at exit 0, and its stderr only when PreToolUse,
//     UserPromptSubmit or PreTaskExec exits 2. Tool inputs of PostToolUse
//     were {} on 1.0.165-1.0.242 (the path is then only in the result text);
//     tool_response is a string there.
//   - kiro-cli 3 runs the v1 files in its V3 engine, now the default (the
//     V3 hooks page; kiro-cli 2.13+ with --v3 before): same triggers, same
//     exit-code contract, a block shown as "Tool execution failed". Its
//     stdin follows the CLI docs: a UUID session_id (not "sess_…") and the
//     CLI's canonical tool names (fs_write seen on 2.13 --v3), which the
//     tool-name signal recognises. Amazon Q Developer CLI, kiro-cli's
//     predecessor, speaks the v2 agent-hook dialect above.
//
// Neither dialect reads JSON: a JSON deny on stdout at exit 0 lets the tool
// run (measured on IDE 1.1.14). So hookshim answers in exit codes and plain
// text only: a block is the reason on stderr with exit 2, and nothing on
// stdout (a reason on stdout with exit 2 does not block); context is the
// text alone on stdout at exit 0, where the event feeds stdout to the model.
// Every other answer is exit 0 with nothing at all. No dialect can ask the
// user or rewrite a tool's input.
//
// Detection: Cursor also sends preToolUse/postToolUse/stop, so Kiro's own
// event names, tool vocabulary and the absence of Cursor's and Claude
// Code's fields are what count.
var Kiro = &Provider{
	ID:      "kiro",
	Name:    "Kiro",
	Install: kiroInstall,
	Signals: []Signal{
		OneOf("hook_event_name", 8, "agentSpawn", "userPromptSubmit"),
		OneOf("hook_event_name", 8, kiroOnlyV1Events...),
		OneOf("hook_event_name", 3, "preToolUse", "postToolUse", "stop"),
		OneOf("tool_name", 4, "execute_bash", "execute_cmd", "execute_pwsh", "fs_read", "fs_write",
			"fs_append", "str_replace", "use_aws", "use_subagent"),
		{Weight: 3, desc: `tool_name is an MCP tool "@server/tool"`, test: func(p Payload) bool {
			return kiroMCP(p.Get("tool_name").Str, p) != nil
		}},
		Prefixed("session_id", "sess_", 3),
		{Weight: 1, desc: "Claude-style event name with none of Claude Code's own fields", test: func(p Payload) bool {
			switch hookEventName(p) {
			case "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop":
				return !p.Get("transcript_path").Exists() && !p.Get("permission_mode").Exists() &&
					!p.Get("timestamp").Exists() && !p.Get("tool_use_id").Exists()
			}
			return false
		}},
		Has("cursor_version", -10),
		Has("transcript_path", -3),
		Has("timestamp", -3),
		Has("tool_use_id", -2),
		Has("prompt_id", -2),
	},
	Events: []Spec{
		// CLI v2 agent hooks.
		{"agentSpawn", event.SessionStart, CanContext},
		{"userPromptSubmit", event.BeforePrompt, CanContext},
		{"preToolUse", event.BeforeToolExecute, CanDeny},
		{"postToolUse", event.AfterToolExecute, 0},
		{"stop", event.AgentStop, 0},
		// v1 hook files (IDE 1.x, CLI v3).
		{"SessionStart", event.SessionStart, CanContext},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny | CanContext},
		{"PreToolUse", event.BeforeToolExecute, CanDeny},
		{"PostToolUse", event.AfterToolExecute, 0},
		{"Stop", event.AgentStop, 0},
		{"PreTaskExec", event.BeforeTask, CanDeny},
		{"PostTaskExec", event.AfterTask, 0},
		{"PostFileCreate", event.FileCreated, 0},
		{"PostFileSave", event.FileChanged, 0},
		{"PostFileDelete", event.FileDeleted, 0},
		{"Manual", event.ManualTrigger, 0},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "cwd",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolOutput: "tool_response",
		Prompt:     "prompt",
	},
	Tools: Renames{
		{"execute_bash", event.ToolShell},
		{"execute_cmd", event.ToolShell},  // Windows builds of the CLI
		{"execute_pwsh", event.ToolShell}, // Kiro IDE on Windows
		{"shell", event.ToolShell},
		{"fs_read", event.ToolFileRead},
		{"read", event.ToolFileRead},
		{"fs_write", event.ToolFileWrite},
		{"write", event.ToolFileWrite},
		{"str_replace", event.ToolFileEdit},
		{"fs_append", event.ToolFileEdit},
		{"grep", event.ToolSearch},
		{"glob", event.ToolFind},
		{"web_search", event.ToolWebSearch},
		{"web_fetch", event.ToolWebFetch},
		{"use_subagent", event.ToolAgent},
		{"delegate", event.ToolAgent},
	},
	SplitMCP:   kiroMCP,
	Adjust:     adjustKiro,
	Encode:     encodeKiro,
	Dialect:    kiroDialect,
	TextStdout: true,
	Timeout:    30 * time.Second, // timeout_ms defaults to 30000 (hooks.rs DEFAULT_TIMEOUT_MS)
}

// Events only the v1 hook files have.
var kiroOnlyV1Events = []string{
	"PreTaskExec", "PostTaskExec", "PostFileCreate", "PostFileSave", "PostFileDelete", "Manual",
}

// kiroMCP splits @server/tool (MCP_SERVER_TOOL_DELIMITER is "/").
func kiroMCP(native string, _ Payload) *event.MCP {
	rest, ok := strings.CutPrefix(native, "@")
	if !ok {
		return nil
	}
	server, tool, ok := strings.Cut(rest, "/")
	if !ok || server == "" || tool == "" {
		return nil
	}
	return &event.MCP{Server: server, Tool: tool}
}

func adjustKiro(p Payload, spec *Spec, ev *event.Event) {
	if t := ev.Tool; t != nil {
		in := gjson.ParseBytes(t.Input)
		switch t.Native {
		case "fs_write", "write":
			// One tool does every write; its command says which kind.
			switch in.Get("command").Str {
			case "str_replace", "insert", "append":
				t.Name = event.ToolFileEdit
			}
		case "fs_read", "read":
			// fs_read reads a list of operations; the first path stands in.
			t.FilePath = in.Get("operations.0.path").Str
		}
		isWrite := t.Native == "fs_write" || t.Native == "write" || t.Native == "str_replace" || t.Native == "fs_append"
		if isWrite && t.FilePath == "" && !in.Get("path").Exists() {
			// The IDE's PostToolUse inputs are {} (1.0.165-1.0.242): the
			// path, relative to the workspace, is only in the result text.
			t.FilePath = kiroResultPath(p.Get("tool_response").Str)
		}
		// The CLI reports {success: false, error: [...]} for a failed tool
		// (chat/mod.rs); the IDE has no success flag at all.
		if ev.Name == event.AfterToolExecute {
			if r := p.Get("tool_response"); r.IsObject() && r.Get("success").Type == gjson.False {
				ev.Name = event.ToolUseFailure
				t.Output = nil
				t.Error = []byte(r.Raw)
				if e := r.Get("error"); e.Exists() {
					t.Error = []byte(e.Raw)
				}
			}
		}
	}
	if spec.Native == "userPromptSubmit" && ev.Prompt == nil && p.Env != nil {
		// The CLI also puts the prompt in USER_PROMPT (cut to 4096 bytes).
		if s := p.Env("USER_PROMPT"); s != "" {
			ev.Prompt = &s
		}
	}
}

// kiroResultPath reads the file from the IDE's write results: "Created the
// <path> file.", "Replaced text in <path>", "Appended the text to the
// <path> file." (captured on IDE 1.0.165-1.0.242).
func kiroResultPath(result string) string {
	for _, f := range []struct{ prefix, suffix string }{
		{"Created the ", " file."},
		{"Appended the text to the ", " file."},
		{"Replaced text in ", ""},
	} {
		if rest, ok := strings.CutPrefix(result, f.prefix); ok && !strings.Contains(rest, "\n") {
			if p, ok := strings.CutSuffix(rest, f.suffix); ok && p != "" {
				return p
			}
		}
	}
	return ""
}

// encodeKiro answers in exit codes and plain text: Kiro reads no JSON.
func encodeKiro(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	if v.Decision == decision.Deny && spec.Can.Has(CanDeny) {
		return Answer{Stderr: oneLineEnd(v.Reason), Exit: 2}
	}
	if v.Context != "" && spec.Can.Has(CanContext) {
		return Answer{Stdout: []byte(oneLineEnd(v.Context))}
	}
	return Answer{}
}

// oneLineEnd ends s with exactly one newline.
func oneLineEnd(s string) string {
	return strings.TrimRight(s, "\n") + "\n"
}

// kiroDialect is what a Kiro CLI agent hook reads: the v2 event names,
// the CLI's tools (fs_write does every write, its command says which;
// fs_read reads a list of operations), MCP tools as @server/tool, and the
// prompt also in USER_PROMPT (hooks.rs).
var kiroDialect = &Dialect{
	EventKey: "hook_event_name",
	Env:      Renames{{"USER_PROMPT", FromPrompt}},
	Shell:    []string{"bash", "-c"}, // on Unix (hooks.rs)
	Inputs: []InputKeys{
		{event.ToolFileWrite, Renames{{"path", "file_path"}, {"file_text", "content"}}},
		{event.ToolFileEdit, Renames{{"path", "file_path"}, {"old_str", "old_string"}, {"new_str", "new_string"}}},
	},
	MCPName: func(server, tool string) string { return "@" + server + "/" + tool },
	Finish:  finishKiro,
	Read:    readKiro,
}

// finishKiro names file tools as the CLI does: a write or an edit is
// fs_write with its command, a read is fs_read with one operation.
func finishKiro(doc []byte, _ *Spec, ev *event.Event, _ string, input []byte) ([]byte, error) {
	t := ev.Tool
	if t == nil {
		return doc, nil
	}
	var err error
	switch t.Name {
	case event.ToolFileWrite, event.ToolFileEdit:
		command := "create"
		if t.Name == event.ToolFileEdit {
			command = "str_replace"
		}
		if doc, err = sjson.SetBytes(doc, "tool_name", "fs_write"); err == nil {
			doc, err = sjson.SetBytes(doc, "tool_input.command", command)
		}
	case event.ToolFileRead:
		op := (&wire.Object{}).Str("mode", "Line").Str("path", t.FilePath)
		in := (&wire.Object{}).Raw("operations", append(append([]byte("["), op.Bytes()...), ']'))
		if doc, err = sjson.SetBytes(doc, "tool_name", "fs_read"); err == nil {
			doc, err = sjson.SetRawBytes(doc, "tool_input", in.Bytes())
		}
	}
	return doc, err
}

// readKiro reads an answer as Kiro does: no JSON; exit 2 blocks with
// stderr as the reason, stdout of exit 0 is context where the event takes
// it, any other exit is a failed hook.
func readKiro(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	var o decision.Output
	switch {
	case exit == 2:
		o.Decision, o.Reason = decision.Deny, orBlocked(stderr)
	case exit != 0:
		return o, exitFailed("Kiro", exit, stderr)
	case spec.Can.Has(CanContext):
		o.Context = strings.TrimSpace(string(stdout))
	}
	return o, nil
}
