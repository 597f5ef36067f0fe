package dialect

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

var now = time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)

// fixture reads a sample payload as the caller's canonical event. The
// tests here cannot import normalize (it sits beside this package), so
// the events are built by hand from the fixtures' values.
func fixture(t *testing.T, tool, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("../../testdata/payloads", tool, name))
	require.NoError(t, err)
	return bytes.TrimSpace(raw)
}

// spoken is Speak's call of d when caller sent ev, with its input parsed.
func spoken(t *testing.T, d, caller *provider.Provider, ev *event.Event) (gjson.Result, *Call) {
	t.Helper()
	c, err := Speak(d, caller, ev, now)
	require.NoError(t, err, d.ID)
	return gjson.ParseBytes(bytes.Join(c.Input, nil)), c
}

func geminiShell(t *testing.T) *event.Event {
	raw := fixture(t, "gemini-cli", "BeforeTool-destructive.json")
	p := gjson.ParseBytes(raw)
	return &event.Event{
		Provider: "gemini-cli", Native: "BeforeTool", Name: event.BeforeToolExecute,
		SessionID: p.Get("session_id").Str, Cwd: p.Get("cwd").Str, ProjectDir: p.Get("cwd").Str,
		TranscriptPath: p.Get("transcript_path").Str,
		Tool: &event.Tool{Name: event.ToolShell, Native: "run_shell_command", Input: []byte(p.Get("tool_input").Raw),
			Command: p.Get("tool_input.command").Str},
		Raw: raw,
	}
}

// A Claude Code handler under Gemini CLI reads Claude's payload: its event
// and tool names, its keys, CLAUDE_PROJECT_DIR; what Gemini did not send
// is left out and said.
func TestClaudeUnderGemini(t *testing.T) {
	c, err := Speak(provider.Claude, provider.Gemini, geminiShell(t), now)
	require.NoError(t, err)
	require.Equal(t, "PreToolUse", c.Native)
	require.Equal(t, `{"session_id":"19b5552b-1505-4161-b927-4e8f0e09d4e1",`+
		`"transcript_path":"/home/dev/.gemini/tmp/proj/chats/session-2026-11-22T08-14-19b5552b.jsonl",`+
		`"cwd":"/home/dev/proj","hook_event_name":"PreToolUse","tool_name":"Bash",`+
		`"tool_input":{"command":"rm -rf /","description":"Clean up the build output"}}`, string(bytes.Join(c.Input, nil)))
	require.Equal(t, []string{"CLAUDE_PROJECT_DIR=/home/dev/proj"}, c.Env)
	require.Equal(t, []string{"permission_mode", "tool_use_id"}, c.Gaps)
}

// The tool's own call reaches its own handler byte for byte.
func TestOwnToolUntouched(t *testing.T) {
	ev := geminiShell(t)
	c, err := Speak(provider.Gemini, provider.Gemini, ev, now)
	require.NoError(t, err)
	require.Equal(t, ev.Raw, bytes.Join(c.Input, nil))
	require.Empty(t, c.Gaps)
	require.Contains(t, c.Env, "GEMINI_PROJECT_DIR=/home/dev/proj")
	require.Contains(t, c.Env, "GEMINI_SESSION_ID=19b5552b-1505-4161-b927-4e8f0e09d4e1")
}

// Each dialect names the tool and its input keys its own way, and a
// rewrite comes back in the caller's keys.
func TestToolShapes(t *testing.T) {
	raw := fixture(t, "copilot-cli", "preToolUse-edit.json")
	ev := &event.Event{Provider: "copilot-cli", Native: "preToolUse", Name: event.BeforeToolExecute,
		SessionID: "s", Cwd: "/home/dev/shop", ProjectDir: "/home/dev/shop", Raw: raw,
		Tool: &event.Tool{Name: event.ToolFileEdit, Native: "edit", FilePath: "/home/dev/shop/notes.txt",
			Input: []byte(gjson.GetBytes(raw, "toolArgs").Raw)}}
	for _, tc := range []struct {
		d          *provider.Provider
		name, keys string
	}{
		{provider.Claude, "Edit", `{"file_path":"/home/dev/shop/notes.txt","old_string":"hello","new_string":"bye"}`},
		{provider.Gemini, "replace", `{"file_path":"/home/dev/shop/notes.txt","old_string":"hello","new_string":"bye"}`},
		{provider.Kimi, "Edit", `{"path":"/home/dev/shop/notes.txt","old_string":"hello","new_string":"bye"}`},
		{provider.Kiro, "fs_write", `{"path":"/home/dev/shop/notes.txt","old_str":"hello","new_str":"bye","command":"str_replace"}`},
		{provider.Codex, "apply_patch", `{"command":"*** Begin Patch\n*** Update File: /home/dev/shop/notes.txt\n@@\n-hello\n+bye\n*** End Patch\n"}`},
		{provider.VSCode, "replace_string_in_file", `{"filePath":"/home/dev/shop/notes.txt","oldString":"hello","newString":"bye"}`},
	} {
		doc, _ := spoken(t, tc.d, provider.Copilot, ev)
		require.Equal(t, tc.name, doc.Get("tool_name").Str, tc.d.ID)
		require.JSONEq(t, tc.keys, doc.Get("tool_input").Raw, tc.d.ID)
	}
	doc, _ := spoken(t, provider.Cline, provider.Copilot, ev)
	require.Equal(t, "editor", doc.Get("preToolUse.toolName").Str)
	require.JSONEq(t, `{"path":"/home/dev/shop/notes.txt","old_text":"hello","new_text":"bye"}`, doc.Get("preToolUse.parameters").Raw)

	c, err := Speak(provider.Claude, provider.Copilot, ev, now)
	require.NoError(t, err)
	out, err := c.Read(0, []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow",`+
		`"updatedInput":{"file_path":"/tmp/x","old_string":"hello","new_string":"bye!"}}}`), "")
	require.NoError(t, err)
	require.Equal(t, decision.Allow, out.Decision)
	require.JSONEq(t, `{"path":"/tmp/x","old_str":"hello","new_str":"bye!"}`, string(out.UpdatedInput))
}

// Split events: Windsurf and Cursor hooks for a shell command get the
// event their own hooks for commands are written for.
func TestSplitEvents(t *testing.T) {
	ev := geminiShell(t)
	doc, _ := spoken(t, provider.Windsurf, provider.Gemini, ev)
	require.Equal(t, "pre_run_command", doc.Get("agent_action_name").Str)
	require.Equal(t, "rm -rf /", doc.Get("tool_info.command_line").Str)
	require.Equal(t, "/home/dev/proj", doc.Get("tool_info.cwd").Str)

	doc, c := spoken(t, provider.Cursor, provider.Gemini, ev)
	require.Equal(t, "beforeShellExecution", doc.Get("hook_event_name").Str)
	require.Equal(t, "rm -rf /", doc.Get("command").Str)
	require.Equal(t, "Shell", doc.Get("tool_name").Str)
	require.Equal(t, `["/home/dev/proj"]`, doc.Get("workspace_roots").Raw)
	require.Contains(t, c.Gaps, "cursor_version")

	doc, _ = spoken(t, provider.Cline, provider.Gemini, ev)
	require.Equal(t, "PreToolUse", doc.Get("hookName").Str)
	require.Equal(t, "execute_command", doc.Get("preToolUse.toolName").Str)
	require.Equal(t, "rm -rf /", doc.Get("preToolUse.parameters.command").Str)
	require.Equal(t, "/home/dev/proj", doc.Get("workspaceRoots.0").Str)
	require.Equal(t, strconv.FormatInt(now.UnixMilli(), 10), doc.Get("timestamp").Str)
}

// A dialect without the event says so; one without command hooks, or
// not a tool at all, is refused with the list of dialects.
func TestNoSuchDialectOrEvent(t *testing.T) {
	_, err := Lookup("opencode")
	require.ErrorContains(t, err, "no command hooks")
	require.ErrorContains(t, err, "claude-code")
	_, err = Lookup("clode")
	require.ErrorContains(t, err, `dialect "clode" is not a known tool`)
	pr, err := Lookup("claude")
	require.NoError(t, err)
	require.Equal(t, provider.Claude, pr)

	ev := &event.Event{Provider: "gemini-cli", Native: "BeforeModel", Name: event.BeforeModel}
	_, err = Speak(provider.Claude, provider.Gemini, ev, now)
	require.ErrorIs(t, err, ErrNoEvent)
	require.ErrorContains(t, err, "Claude Code has no event for before_model")
}

// Every tool with command hooks is a dialect, and each has a reader.
func TestEveryCommandToolIsADialect(t *testing.T) {
	for _, id := range []string{"claude-code", "gemini-cli", "codex", "cursor", "copilot-cli", "kiro", "windsurf",
		"qwen-code", "kimi-code", "factory-droid", "cline", "codebuddy", "qoder", "vscode-copilot", "trae", "devin-cli",
		"grok", "tabnine", "cortex-code", "junie", "jan"} {
		pr, err := Lookup(id)
		require.NoError(t, err, id)
		require.NotNil(t, pr.Dialect.Read, id)
	}
	require.False(t, slices.Contains(IDs(), "opencode"))
	require.False(t, slices.Contains(IDs(), "kilo"))
}

// Answers are read by each dialect's contract.
func TestReaders(t *testing.T) {
	f := false
	for _, tc := range []struct {
		d      *provider.Provider
		native string
		exit   int
		stdout string
		stderr string
		want   decision.Output
		err    string
	}{
		{provider.Claude, "PreToolUse", 2, `{"decision":"approve"}`, "no rm\n", decision.Output{Decision: decision.Deny, Reason: "no rm"}, ""},
		{provider.Claude, "PreToolUse", 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`, "", decision.Output{Decision: decision.Ask, Reason: "sure?"}, ""},
		{provider.Claude, "PreToolUse", 0, `{"decision":"block","reason":"old style"}`, "", decision.Output{Decision: decision.Deny, Reason: "old style"}, ""},
		{provider.Claude, "PostToolUse", 0, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: ok"},"suppressOutput":true,"systemMessage":"ran lint"}`, "", decision.Output{Context: "lint: ok", SuppressOutput: true, SystemMessage: "ran lint"}, ""},
		{provider.Claude, "Stop", 0, `{"continue":false,"stopReason":"done for today"}`, "", decision.Output{Continue: &f, Reason: "done for today"}, ""},
		{provider.Claude, "UserPromptSubmit", 0, "Branch: main\n", "", decision.Output{Context: "Branch: main"}, ""},
		{provider.Claude, "PreToolUse", 0, "checked\n", "", decision.Output{}, ""},
		{provider.Claude, "PreToolUse", 1, "", "oops", decision.Output{}, "exited 1, which Claude Code reads as a failed hook: oops"},
		{provider.Claude, "PreToolUse", 1, `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"json decides"}}`, "", decision.Output{Decision: decision.Deny, Reason: "json decides"}, ""},
		{provider.Claude, "PreToolUse", 2, `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"from json"}}`, "from stderr", decision.Output{Decision: decision.Deny, Reason: "from json"}, ""},
		{provider.Codex, "PreToolUse", 2, `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"from json"}}`, "from stderr", decision.Output{Decision: decision.Deny, Reason: "from stderr"}, ""},
		{provider.Codex, "PreToolUse", 2, "", "", decision.Output{}, "exited 2 without a reason on stderr, which Codex reads as a failed hook"},
		{provider.Codex, "PreToolUse", 1, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", decision.Output{}, "Codex reads as a failed hook"},
		{provider.Codex, "SubagentStart", 0, "subagent rules", "", decision.Output{Context: "subagent rules"}, ""},
		{provider.Claude, "PreToolUse", 0, `{"hookSpecificOutput":{"permissionDecision":"maybe"}}`, "", decision.Output{}, `permissionDecision: decision "maybe"`},
		{provider.Claude, "PermissionRequest", 0, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not here","interrupt":true}}}`, "", decision.Output{Decision: decision.Deny, Reason: "not here", Continue: &f}, ""},
		{provider.Gemini, "BeforeTool", 0, `{"decision":"deny","reason":"no"}`, "", decision.Output{Decision: decision.Deny, Reason: "no"}, ""},
		{provider.Gemini, "BeforeTool", 2, "", "dangerous", decision.Output{Decision: decision.Deny, Reason: "dangerous"}, ""},
		{provider.Gemini, "BeforeTool", 0, "just text", "", decision.Output{SystemMessage: "just text"}, ""},
		{provider.Gemini, "BeforeTool", 1, "", "warn", decision.Output{}, "Gemini CLI reads as a failed hook"},
		{provider.Gemini, "BeforeTool", 0, `{"hookSpecificOutput":{"tool_input":{"command":"ls"}}}`, "", decision.Output{UpdatedInput: []byte(`{"command":"ls"}`)}, ""},
		{provider.Gemini, "BeforeAgent", 0, `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"ctx"}}`, "", decision.Output{Context: "ctx"}, ""},
		{provider.Cursor, "beforeShellExecution", 0, `{"permission":"deny","user_message":"u","agent_message":"a"}`, "", decision.Output{Decision: decision.Deny, Reason: "a"}, ""},
		{provider.Cursor, "beforeShellExecution", 0, `not json`, "", decision.Output{Decision: decision.Deny, Reason: "the hook's answer is not JSON (Cursor blocks the action then)"}, ""},
		{provider.Cursor, "beforeSubmitPrompt", 0, `{"continue":false,"user_message":"no"}`, "", decision.Output{Decision: decision.Deny, Reason: "no"}, ""},
		{provider.Cursor, "stop", 0, `{"followup_message":"run the tests"}`, "", decision.Output{Decision: decision.Deny, Reason: "run the tests"}, ""},
		{provider.Cursor, "preToolUse", 2, "", "blocked", decision.Output{Decision: decision.Deny, Reason: "blocked"}, ""},
		{provider.Cursor, "sessionStart", 0, `{"env":{"A":"1"},"additional_context":"ctx"}`, "", decision.Output{Context: "ctx", Env: []byte(`{"A":"1"}`)}, ""},
		{provider.Copilot, "preToolUse", 1, "", "nope", decision.Output{Decision: decision.Deny, Reason: "nope"}, ""},
		{provider.Copilot, "preToolUse", 0, `{"permissionDecision":"allow","modifiedArgs":{"command":"ls"}}`, "", decision.Output{Decision: decision.Allow, UpdatedInput: []byte(`{"command":"ls"}`)}, ""},
		{provider.Copilot, "agentStop", 0, `{"decision":"block","reason":"not yet"}`, "", decision.Output{Decision: decision.Deny, Reason: "not yet"}, ""},
		{provider.Kiro, "userPromptSubmit", 0, "house rules\n", "", decision.Output{Context: "house rules"}, ""},
		{provider.Kiro, "preToolUse", 0, "ignored\n", "", decision.Output{}, ""},
		{provider.Kiro, "preToolUse", 2, "", "no", decision.Output{Decision: decision.Deny, Reason: "no"}, ""},
		{provider.Windsurf, "pre_run_command", 2, "", "no", decision.Output{Decision: decision.Deny, Reason: "no"}, ""},
		{provider.Windsurf, "pre_run_command", 0, `{"decision":"deny"}`, "", decision.Output{}, ""},
		{provider.Cline, "PreToolUse", 0, `{"cancel":true,"errorMessage":"stop it"}`, "", decision.Output{Decision: decision.Deny, Reason: "stop it", Continue: &f}, ""},
		{provider.Cline, "PreToolUse", 2, "", "x", decision.Output{}, "Cline reads as a failed hook"},
		{provider.Cline, "PostToolUse", 0, `{"cancel":false,"contextModification":"more"}`, "", decision.Output{Context: "more"}, ""},
		{provider.Kimi, "UserPromptSubmit", 0, "plain context", "", decision.Output{Context: "plain context"}, ""},
		{provider.Kimi, "UserPromptSubmit", 0, `{"message":"ctx"}`, "", decision.Output{Context: "ctx"}, ""},
		{provider.Codex, "PreToolUse", 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`, "", decision.Output{Decision: decision.Deny, Reason: "r"}, ""},
		// Grok: only the documented deny of PreToolUse; the rest is unknown,
		// so a failed handler, never an allow.
		{provider.Grok, "PreToolUse", 0, `{"decision":"deny","reason":"no rm"}`, "", decision.Output{Decision: decision.Deny, Reason: "no rm"}, ""},
		{provider.Grok, "PreToolUse", 0, "\n", "", decision.Output{}, ""},
		{provider.Grok, "PreToolUse", 0, `{"decision":"allow"}`, "", decision.Output{}, `decision "allow": Grok Build documents only "deny"`},
		{provider.Grok, "PreToolUse", 0, `{"decision":"block"}`, "", decision.Output{}, `documents only "deny"`},
		{provider.Grok, "PreToolUse", 0, "blocked", "", decision.Output{}, "not a JSON object"},
		{provider.Grok, "PreToolUse", 2, "", "no rm", decision.Output{}, "exited 2: Grok Build documents no answer but exit 0's, so this one is not read: no rm"},
		{provider.Grok, "PostToolUse", 0, `{"decision":"deny"}`, "", decision.Output{}, ""},
		// Tabnine and Cortex Code read as Gemini CLI and Claude Code do.
		{provider.Tabnine, "BeforeTool", 0, `{"decision":"deny","reason":"no"}`, "", decision.Output{Decision: decision.Deny, Reason: "no"}, ""},
		{provider.CortexCode, "PreToolUse", 2, "", "no rm", decision.Output{Decision: decision.Deny, Reason: "no rm"}, ""},
		{provider.CortexCode, "PreToolUse", 1, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", decision.Output{}, "Cortex Code reads as a failed hook"},
		// Junie reads nothing.
		{provider.Junie, "SessionStart", 0, `{"decision":"deny"}`, "", decision.Output{}, ""},
		{provider.Junie, "SessionStart", 3, "", "x", decision.Output{}, "Junie CLI reads as a failed hook"},
		// Jan: stdout on exit 0, a deny of PreToolUse alone, and context.
		{provider.Jan, "PreToolUse", 0, `{"decision":"deny","reason":"no","context":"c"}`, "", decision.Output{Decision: decision.Deny, Reason: "no", Context: "c"}, ""},
		{provider.Jan, "PreToolUse", 0, `{"decision":"allow"}`, "", decision.Output{}, ""},
		{provider.Jan, "PostToolUse", 0, `{"decision":"deny","context":"c"}`, "", decision.Output{Context: "c"}, ""},
		{provider.Jan, "PreToolUse", 2, `{"decision":"deny"}`, "x", decision.Output{}, "Jan reads as a failed hook"},
		{provider.Jan, "PreToolUse", 0, "deny", "", decision.Output{}, "not a JSON object"},
	} {
		spec := tc.d.Spec(tc.native)
		require.NotNil(t, spec, tc.native)
		got, err := tc.d.Dialect.Read(spec, tc.exit, []byte(tc.stdout), tc.stderr)
		name := tc.d.ID + " " + tc.native + " " + strings.TrimSpace(tc.stdout+tc.stderr)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, name)
			continue
		}
		require.NoError(t, err, name)
		require.Equal(t, tc.want, got, name)
	}
}

// Cursor's own preToolUse for a shell command reaches a Cursor handler
// as beforeShellExecution, as the duplicate call Cursor also sends does:
// both share one answer, so both ask the hook the same way.
func TestCursorOwnPreToolUse(t *testing.T) {
	raw := fixture(t, "cursor", "preToolUse-destructive.json")
	p := gjson.ParseBytes(raw)
	ev := &event.Event{Provider: "cursor", Native: "preToolUse", Name: event.BeforeToolExecute,
		SessionID: p.Get("conversation_id").Str, Cwd: "/home/dev/proj", ProjectDir: "/home/dev/proj", Raw: raw,
		Tool: &event.Tool{Name: event.ToolShell, Native: "Shell", Input: []byte(p.Get("tool_input").Raw),
			Command: p.Get("tool_input.command").Str}}
	doc, _ := spoken(t, provider.Cursor, provider.Cursor, ev)
	require.Equal(t, "beforeShellExecution", doc.Get("hook_event_name").Str)
	require.Equal(t, "rm -rf /", doc.Get("command").Str)

	ev.Native = "beforeShellExecution"
	c, err := Speak(provider.Cursor, provider.Cursor, ev, now)
	require.NoError(t, err)
	require.Equal(t, raw, bytes.Join(c.Input, nil))
}

// MCP tools, file reads, the keys derived from the clock and the
// project, and the variables each tool sets, as docs/dialects.md says.
func TestNamesDerivedAndVariables(t *testing.T) {
	mcp := &event.Event{Provider: "claude-code", Native: "PreToolUse", Name: event.BeforeToolExecute,
		SessionID: "s", Cwd: "/p", ProjectDir: "/p",
		Tool: &event.Tool{Name: "mcp__github__create_issue", Native: "mcp__github__create_issue",
			MCP: &event.MCP{Server: "github", Tool: "create_issue"}, Input: []byte(`{"title":"x"}`)}}
	read := &event.Event{Provider: "claude-code", Native: "PreToolUse", Name: event.BeforeToolExecute,
		SessionID: "s", Cwd: "/p", ProjectDir: "/p",
		Tool: &event.Tool{Name: event.ToolFileRead, Native: "Read", FilePath: "/p/.env", Input: []byte(`{"file_path":"/p/.env"}`)}}
	prompt := "fix it"
	submit := &event.Event{Provider: "claude-code", Native: "UserPromptSubmit", Name: event.BeforePrompt,
		SessionID: "s", Cwd: "/p", ProjectDir: "/p", Prompt: &prompt,
		Fields: []event.Field{{Key: "turn_id", Value: []byte(`"t1"`)}}}
	payload := func(d *provider.Provider, ev *event.Event) (gjson.Result, []string) {
		doc, c := spoken(t, d, provider.Claude, ev)
		return doc, c.Env
	}
	iso := now.UTC().Format("2006-01-02T15:04:05.000Z")

	doc, _ := payload(provider.Gemini, mcp)
	require.Equal(t, "mcp_github_create_issue", doc.Get("tool_name").Str)
	require.JSONEq(t, `{"server_name":"github","tool_name":"create_issue"}`, doc.Get("mcp_context").Raw)
	require.Equal(t, iso, doc.Get("timestamp").Str)
	doc, _ = payload(provider.Cursor, mcp)
	require.Equal(t, "beforeMCPExecution", doc.Get("hook_event_name").Str)
	require.Equal(t, "create_issue", doc.Get("tool_name").Str)
	require.Equal(t, "github", doc.Get("mcp_server_name").Str)
	require.Equal(t, `{"title":"x"}`, doc.Get("tool_input").Str)
	doc, _ = payload(provider.Kiro, mcp)
	require.Equal(t, "@github/create_issue", doc.Get("tool_name").Str)
	doc, _ = payload(provider.Codex, mcp)
	require.Equal(t, "mcp__github__create_issue", doc.Get("tool_name").Str)

	doc, _ = payload(provider.Kiro, read)
	require.Equal(t, "fs_read", doc.Get("tool_name").Str)
	require.JSONEq(t, `{"operations":[{"mode":"Line","path":"/p/.env"}]}`, doc.Get("tool_input").Raw)
	doc, _ = payload(provider.Cursor, read)
	require.Equal(t, "beforeReadFile", doc.Get("hook_event_name").Str)
	require.Equal(t, "/p/.env", doc.Get("file_path").Str)
	doc, _ = payload(provider.Windsurf, read)
	require.Equal(t, "pre_read_code", doc.Get("agent_action_name").Str)
	require.Equal(t, "/p/.env", doc.Get("tool_info.file_path").Str)
	require.Equal(t, iso, doc.Get("timestamp").Str)

	doc, _ = payload(provider.Qwen, submit)
	require.Equal(t, iso, doc.Get("timestamp").Str)
	doc, _ = payload(provider.Copilot, submit)
	require.Equal(t, now.UnixMilli(), doc.Get("timestamp").Int())
	require.Equal(t, "s", doc.Get("sessionId").Str)
	doc, _ = payload(provider.Codex, submit)
	require.Equal(t, "t1", doc.Get("turn_id").Str)
	doc, env := payload(provider.Kiro, submit)
	require.Equal(t, "userPromptSubmit", doc.Get("hook_event_name").Str)
	require.Contains(t, env, "USER_PROMPT=fix it")
	doc, env = payload(provider.Cursor, submit)
	require.Equal(t, "t1", doc.Get("generation_id").Str)
	require.Equal(t, `["/p"]`, doc.Get("workspace_roots").Raw)
	require.Equal(t, []string{"CURSOR_PROJECT_DIR=/p", "CLAUDE_PROJECT_DIR=/p"}, env)
	_, env = payload(provider.Gemini, submit)
	require.Equal(t, []string{"GEMINI_PROJECT_DIR=/p", "GEMINI_CWD=/p", "GEMINI_SESSION_ID=s", "CLAUDE_PROJECT_DIR=/p"}, env)

	// Grok Build keys its events in PascalCase and sends them in
	// snake_case; a hook written for it reads what it sends.
	doc, env = payload(provider.Grok, read)
	require.Equal(t, "pre_tool_use", doc.Get("hookEventName").Str)
	require.Equal(t, "/p", doc.Get("workspaceRoot").Str)
	// Its variables as its hook runner sets them, the event spelt as sent.
	require.Equal(t, []string{"GROK_WORKSPACE_ROOT=/p", "CLAUDE_PROJECT_DIR=/p", "GROK_HOOK_EVENT=pre_tool_use", "GROK_SESSION_ID=s"}, env)
	doc, env = payload(provider.Grok, submit)
	require.Equal(t, "user_prompt_submit", doc.Get("hookEventName").Str)
	require.Contains(t, env, "GROK_HOOK_EVENT=user_prompt_submit")
	_, env = payload(provider.Tabnine, submit)
	require.Equal(t, []string{"TABNINE_PROJECT_DIR=/p", "TABNINE_CLI=1"}, env)

	// Jan's project_root is its project folder, where it runs its tools
	// and hooks, not the folder the caller's command ran in.
	sub := *submit
	sub.Cwd = "/p/web"
	doc, _ = payload(provider.Jan, &sub)
	require.Equal(t, "/p", doc.Get("project_root").Str)
	doc, _ = payload(provider.Gemini, &sub)
	require.Equal(t, "/p/web", doc.Get("cwd").Str)
}

// A tool's output reaches a handler of another tool in the dialect's
// shape, where it has one (see response_test.go), else as the caller sent
// it; a failure, where the dialect has no failure event, as its
// after-tool event's error.
func TestToolOutputAsSent(t *testing.T) {
	out := []byte(`{"llmContent":"ok","returnDisplay":"ok"}`)
	ev := &event.Event{Provider: "gemini-cli", Native: "AfterTool", Name: event.AfterToolExecute, SessionID: "s", Cwd: "/p",
		Tool: &event.Tool{Name: event.ToolShell, Native: "run_shell_command", Input: []byte(`{"command":"ls"}`), Command: "ls", Output: out}}
	doc, _ := spoken(t, provider.Claude, provider.Gemini, ev)
	require.Equal(t, "PostToolUse", doc.Get("hook_event_name").Str)
	require.Equal(t, `{"stdout":"ok","stderr":"","interrupted":false,"isImage":false}`, doc.Get("tool_response").Raw)
	doc, _ = spoken(t, provider.Kimi, provider.Gemini, ev)
	require.Equal(t, string(out), doc.Get("tool_output").Raw)

	failed := &event.Event{Provider: "claude-code", Native: "PostToolUseFailure", Name: event.ToolUseFailure, SessionID: "s", Cwd: "/p",
		Tool: &event.Tool{Name: event.ToolShell, Native: "Bash", Input: []byte(`{"command":"false"}`), Command: "false", Error: []byte(`"exit 1"`)}}
	doc, _ = spoken(t, provider.Gemini, provider.Claude, failed)
	require.Equal(t, "AfterTool", doc.Get("hook_event_name").Str)
	require.Equal(t, `{"error":"exit 1"}`, doc.Get("tool_response").Raw)
}

// A dialect handler starts under its tool's shell on Unix (sh -c when the
// dialect names none), and hookshim's own way on Windows.
func TestShellOn(t *testing.T) {
	bash := []string{"bash", "-c"}
	for _, tc := range []struct {
		goos  string
		shell []string
		want  []string
	}{
		{"linux", nil, []string{"sh", "-c"}},
		{"darwin", bash, bash},
		{"windows", bash, nil},
		{"windows", nil, nil},
	} {
		require.Equal(t, tc.want, shellOn(tc.goos, tc.shell), "%s %v", tc.goos, tc.shell)
	}
}
