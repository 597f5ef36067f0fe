package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
)

// Crush (Charm).
//
// Sources: charmbracelet/crush at 37f36e93 (after v0.90.0):
// docs/hooks/README.md, internal/hooks/{input,hooks,runner}.go and
// internal/agent/hooked_tool.go, and a crush built from that commit, run
// here headless against a mock model (testdata/payloads/crush/README.md):
// the payload, environment, deny, rewrite, context and halt below were
// measured.
//
//   - One event, PreToolUse, fired before each tool call of the top-level
//     agent only (sub-agents' calls are not hooked). The docs of later
//     releases announce lifecycle events; none is in this source, so none
//     is registered.
//   - stdin: {event, session_id, cwd, tool_name, tool_input}. The event is
//     under "event", not hook_event_name; tool names are Crush's own,
//     lower case (bash, view, edit, multiedit, write, ls, grep, glob, fetch,
//     agent...), MCP tools mcp_<server>_<tool>. The hook's environment has
//     CRUSH=1, AGENT=crush, AI_AGENT=crush, CRUSH_EVENT, CRUSH_TOOL_NAME,
//     CRUSH_SESSION_ID, CRUSH_CWD and CRUSH_PROJECT_DIR.
//   - Answer: exit 0 with JSON {decision: "allow"|"deny"|null, halt,
//     reason, context: string|string[], updated_input}; a hookSpecificOutput
//     object (Claude's shape) is read instead when present, so hookshim
//     writes Crush's own envelope, which is the only one that can halt.
//     "allow" skips Crush's permission prompt; no decision leaves it to
//     the prompt. context is appended to the tool's result (so it reaches
//     the model only when the tool runs). updated_input is a SHALLOW MERGE
//     over the model's input, applied with or without a decision: keys a
//     policy removed stay, which hookshim cannot express, so it sends the
//     whole rewritten input (every key it keeps is overwritten).
//     halt:true ends the turn (the same as exit 49); exit 2 denies with
//     stderr as the reason. Crush has no "ask": the default degradation
//     denies.
//   - Other exits, a timeout (default 30 s) or a missing command are "no
//     opinion", so a failing hookshim never blocks Crush.
//
// Detection: "event" with no hook_event_name and Crush's tool names; the
// environment markers (CRUSH=1, AGENT=crush, CRUSH_EVENT) confirm it. Goose
// also sends "event", with matcher_context and working_dir, which Crush
// never sends.
var Crush = &Provider{
	ID:      "crush",
	Name:    "Crush",
	Install: crushInstall,
	Signals: []Signal{
		// Crush alone names the event under "event" with Claude's names.
		{Weight: 5, desc: `"event" is a Claude-style event name and there is no hook_event_name`, test: func(p Payload) bool {
			return p.Get("event").Str == "PreToolUse" && !p.Get("hook_event_name").Exists()
		}},
		OneOf("tool_name", 2, "bash", "view", "edit", "multiedit", "write", "ls", "grep", "glob",
			"fetch", "agentic_fetch", "download", "sourcegraph", "todos", "job_output", "job_kill",
			"web_fetch", "web_search", "lsp_diagnostics", "lsp_references", "crush_info", "crush_logs"),
		// What Crush never sends: Claude's keys, and Goose's (which also
		// names the event under "event": matcher_context, working_dir,
		// developer__ tool names).
		Has("transcript_path", -3),
		Has("hook_event_name", -4),
		Has("matcher_context", -4),
		Has("working_dir", -3),
		Prefixed("tool_name", "developer__", -3),
		EnvIs("CRUSH", "1", 2),
		EnvIs("AGENT", "crush", 1),
		EnvSet("CRUSH_EVENT", 2),
	},
	Events: []Spec{
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAllow | CanContext | CanRewrite | CanStop},
	},
	EventName: func(p Payload) string { return p.Get("event").Str },
	Fields: Fields{
		SessionID: "session_id",
		Cwd:       "cwd",
		ToolName:  "tool_name",
		ToolInput: "tool_input",
	},
	Tools: Renames{
		{"bash", event.ToolShell},
		{"view", event.ToolFileRead},
		{"write", event.ToolFileWrite},
		{"edit", event.ToolFileEdit},
		{"multiedit", event.ToolFileEdit},
		{"grep", event.ToolSearch},
		{"glob", event.ToolFind},
		{"web_search", event.ToolWebSearch},
		{"fetch", event.ToolWebFetch},
		{"web_fetch", event.ToolWebFetch},
		{"agent", event.ToolAgent},
	},
	SplitMCP:      splitSingleUnderscore,
	Encode:        encodeCrush,
	Timeout:       30 * time.Second, // Crush's default, which install writes
	ProjectDirEnv: []string{"CRUSH_PROJECT_DIR"},
}

// encodeCrush writes Crush's own answer envelope.
func encodeCrush(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	o := &wire.Object{}
	switch v.Decision {
	case decision.Deny:
		o.Str("decision", "deny")
	case decision.Allow:
		o.Str("decision", "allow")
	}
	if v.Stop {
		o.Bool("halt", true)
	}
	reason := v.Reason
	if v.Stop && v.Decision != decision.Deny {
		reason = v.StopReason
	}
	if reason != "" && (v.Decision == decision.Deny || v.Stop) {
		o.Str("reason", reason)
	}
	if v.Context != "" {
		o.Str("context", v.Context)
	}
	if v.UpdatedInput != nil && v.Decision != decision.Deny && !v.Stop {
		o.Raw("updated_input", v.UpdatedInput)
	}
	return JSONOrEmpty(o)
}
