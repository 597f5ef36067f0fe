package provider

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Grok Build (xAI's coding agent, binary grok).
//
// Not run here: the CLI ships as a native binary outside the registries
// this project reaches, and needs an xAI login. From docs.x.ai
// build/features/hooks, Grok Build's own source and user guide
// (github.com/xai-org/grok-build: crates/codegen/xai-grok-hooks,
// xai-grok-pager/docs/user-guide/10-hooks.md) and a third-party probe of
// Grok Build 1.0.0 (taniwhaai/arai
// docs/upstream/grok-hooks-reverification-1.0.0.md):
//   - hook files are ~/.grok/hooks/*.json and <project>/.grok/hooks/*.json
//     (every *.json of the folder is merged); Grok also runs the hooks of
//     .claude/settings.json and .cursor/hooks.json, so a hook registered
//     for Claude Code or Cursor may be called by Grok with Grok's payload;
//   - events: SessionStart, SessionEnd, UserPromptSubmit, PreToolUse,
//     PostToolUse, PostToolUseFailure, PermissionDenied, Stop, StopFailure,
//     Notification, SubagentStart, SubagentStop, PreCompact, PostCompact.
//     PreToolUse is "the only blocking event";
//   - stdin is camelCase: hookEventName, sessionId, cwd, workspaceRoot and,
//     on tool events, toolName and toolInput. The event's name is spelt
//     two ways. Documented: docs.x.ai names the events in PascalCase, as
//     hook files key them (Grok also accepts snake_case and Cursor's
//     camelCase keys there). Measured: 1.0.0 sent the value in snake_case
//     (pre_tool_use, with GROK_HOOK_EVENT=pre_tool_use, logged by the
//     probe), and Grok's user guide shows the same on stdin, its source
//     serialising the event in snake_case. Both spellings are read; a
//     dialect payload is written in snake_case, as Grok sends it. The shell
//     tool is run_terminal_command {command}; the matcher maps Claude's
//     tool names to Grok's;
//   - every hook process gets GROK_HOOK_EVENT (the event in snake_case),
//     GROK_HOOK_NAME (the hook's configured name), GROK_SESSION_ID,
//     GROK_WORKSPACE_ROOT and, for hooks written for Claude Code,
//     CLAUDE_PROJECT_DIR, the workspace root again (its user guide's
//     "Runner-injected variables" and runner/command.rs);
//   - a PreToolUse answer {"decision": "deny", "reason": …} on stdout kept
//     the command from running and the reason reached the model ("Hook
//     denied: …", measured on 1.0.0 by the probe). Nothing else an answer
//     can carry is documented, so hookshim claims only that.
//
// Detection: the camelCase payload with an event name, and above all
// GROK_HOOK_EVENT, which Grok sets for every hook it runs: it outweighs a
// --provider claude-code or cursor written into a file Grok also reads.
// The docs give one script contract for every hook Grok runs, so a call
// through Claude's or Cursor's file is assumed to carry Grok's payload; a
// payload in Claude's snake_case keys stays Claude's (or Cursor's), whose
// fields hookshim can read.
var Grok = &Provider{
	ID:       "grok",
	Name:     "Grok Build",
	Verified: "from docs (https://docs.x.ai/build/features/hooks) and a third party's probe of 1.0.0 (taniwhaai/arai); not run here",
	Install:  grokInstall,
	Signals: []Signal{
		{Weight: 7, desc: "hookEventName is a Grok event name", test: func(p Payload) bool {
			return grokEventName(p) != ""
		}},
		Has("workspaceRoot", 2),
		Object("toolInput", 1),
		// Copilot CLI and VS Code also send camelCase keys, but never the
		// event name with a workspaceRoot; Cursor and Claude Code send
		// snake_case keys, which Grok's payload never has. A payload in
		// those keys is not read as Grok's even under GROK_HOOK_EVENT:
		// Grok's field paths would find no tool in it, and a policy that
		// sees no tool call cannot stop it.
		Has("hook_event_name", -4),
		Has("session_id", -6),
		Has("tool_name", -6),
		Has("toolArgs", -3),
		// Set by Grok for every hook it runs, whichever file registered
		// it: it wins over a --provider hint (HintWeight) that names
		// Claude Code or Cursor, with Grok's payload or a shapeless one.
		EnvSet("GROK_HOOK_EVENT", 20),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, 0},
		{"UserPromptSubmit", event.BeforePrompt, 0},
		{"PreToolUse", event.BeforeToolExecute, CanDeny},
		{"PermissionDenied", event.PermissionDenied, 0},
		{"PostToolUse", event.AfterToolExecute, 0},
		{"PostToolUseFailure", event.ToolUseFailure, 0},
		{"Notification", event.Notification, 0},
		{"SubagentStart", event.SubagentStart, 0},
		{"SubagentStop", event.SubagentStop, 0},
		{"Stop", event.AgentStop, 0},
		{"StopFailure", event.ErrorOccurred, 0},
		{"PreCompact", event.BeforeCompact, 0},
		{"PostCompact", event.AfterCompact, 0},
		{"SessionEnd", event.SessionEnd, 0},
	},
	EventName: grokEventName,
	Fields: Fields{
		SessionID: "sessionId",
		Cwd:       "cwd",
		ToolName:  "toolName",
		ToolInput: "toolInput",
		// Not documented: assumed to keep Claude's key, as the tool
		// payload keeps Claude's meaning under camelCase names.
		Prompt: "prompt",
	},
	Tools: Renames{
		{"run_terminal_command", event.ToolShell},
	},
	SplitMCP: splitDoubleUnderscore,
	Encode:   encodeGrok,
	Dialect:  grokDialect,
	// Grok's name and Claude Code's, which Grok sets for every hook.
	ProjectDirEnv: []string{"GROK_WORKSPACE_ROOT", "CLAUDE_PROJECT_DIR"},
	Timeout:       30 * time.Second, // what grok_install.go writes (Grok's default is 5 s)
}

// grokEventName reads hookEventName, in the docs' PascalCase, in the
// snake_case 1.0.0 sent (pre_tool_use → PreToolUse) or in Cursor's
// camelCase, which Grok accepts in .cursor/hooks.json; "" for a name that
// is not one of Grok's events (the list is Grok.Events', which a test
// keeps equal).
func grokEventName(p Payload) string {
	n := p.Get("hookEventName").Str
	if n == "" {
		return ""
	}
	if n[0] >= 'a' && n[0] <= 'z' {
		var b strings.Builder
		for _, part := range strings.Split(n, "_") {
			if part == "" {
				return ""
			}
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
		n = b.String()
	}
	switch n {
	case "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionDenied",
		"PostToolUse", "PostToolUseFailure", "Notification", "SubagentStart",
		"SubagentStop", "Stop", "StopFailure", "PreCompact", "PostCompact", "SessionEnd":
		return n
	}
	return ""
}

// encodeGrok writes the one answer Grok is known to read: a denial of
// PreToolUse. Anything else is "no opinion", an empty stdout.
func encodeGrok(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil || v.Decision != decision.Deny || !spec.Can.Has(CanDeny) {
		return Answer{}
	}
	o := (&wire.Object{}).Str("decision", "deny")
	if v.Reason != "" {
		o.Str("reason", v.Reason)
	}
	return JSONOrEmpty(o)
}

// grokDialect is what a hook written for Grok Build reads: the camelCase
// payload with the event under hookEventName in snake_case, as Grok sends
// it (a hook that follows Grok's user guide compares it with
// "pre_tool_use"), and workspaceRoot, the project folder; the variables
// Grok sets, the workspace root under ProjectDirEnv. GROK_HOOK_NAME is
// not set: the name is the one Grok's config gave the hook, which a hook
// of hookshim's config does not have.
var grokDialect = &Dialect{
	EventKey:   "hookEventName",
	EventValue: grokSnake,
	Always:     Renames{{"workspaceRoot", FromProjectDir}},
	Env: Renames{
		{"GROK_HOOK_EVENT", FromEvent},
		{"GROK_SESSION_ID", FromSessionID},
	},
	Read: readGrok,
}

// grokSnake spells one of Grok's events as Grok sends it: PreToolUse →
// pre_tool_use.
func grokSnake(native string) string {
	var b strings.Builder
	for i, c := range native {
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// readGrok reads the one answer Grok is known to read: {"decision":
// "deny", "reason": …} on stdout of a PreToolUse hook that exited 0
// (PreToolUse is its only blocking event, and no other event's answer is
// documented, so those are read as nothing). What Grok does with any
// other exit, any other decision or stdout that is not JSON is not
// documented: each is a failed handler, never an allow.
func readGrok(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	var o decision.Output
	if exit != 0 {
		line, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n")
		if line != "" {
			line = ": " + line
		}
		return o, fmt.Errorf("exited %d: Grok Build documents no answer but exit 0's, so this one is not read%s", exit, line)
	}
	if !spec.Can.Has(CanDeny) {
		return o, nil
	}
	if len(bytes.TrimSpace(stdout)) == 0 {
		return o, nil
	}
	doc, ok := answerObject(stdout)
	if !ok {
		return o, errors.New("stdout is not a JSON object, and Grok Build documents no other answer")
	}
	d := doc.Get("decision")
	switch {
	case !d.Exists():
	case d.Type == gjson.String && d.Str == "deny":
		o.Decision, o.Reason = decision.Deny, orBlocked(doc.Get("reason").Str)
	default:
		return o, fmt.Errorf("decision %s: Grok Build documents only \"deny\"", d.Raw)
	}
	return o, nil
}
