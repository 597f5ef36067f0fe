package provider

import (
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
)

// Devin CLI (Cognition's terminal agent, "Devin for Terminal", 3000.x).
//
// The id is devin-cli: "devin" stays the alias of windsurf, because Devin
// Desktop is the Windsurf IDE renamed and speaks Windsurf's Cascade hooks,
// which have nothing in common with these.
//
// Not run: the CLI installs by script, needs a Cognition account and runs
// only on Cognition's hosted models. Sources: docs.devin.ai/cli/
// extensibility/hooks/overview and …/lifecycle-hooks (read 2026-11), and two
// third-party captures of 3000.6.14 and 3000.10.31 payloads
// (awslabs/aidlc-workflows docs/reference/research/devin/06-hook-transport.md,
// jpcaparas/skills scaffold-devin-hooks; shared/reference/new-agents-other.md
// §5):
//   - "compatible with Claude Code hooks": PascalCase hook_event_name,
//     session_id (a slug, not a UUID), prompt_id; tool events tool_name,
//     tool_input, tool_use_id ("<internal tool>:<n>#<32 hex>"), PostToolUse
//     tool_response {success, output, error}; UserPromptSubmit prompt,
//     SessionStart source, SessionEnd reason, Stop stop_hook_active and
//     last_assistant_message. There is NO cwd and NO transcript_path: the
//     project is DEVIN_PROJECT_DIR;
//   - tool names are its own, lowercase: exec {command, shell_id}, read,
//     edit, write, grep, glob, apply_patch, todo_write, run_subagent,
//     read_subagent; MCP tools mcp__<server>__<tool>;
//   - events (docs): PreToolUse, PostToolUse, PermissionRequest,
//     UserPromptSubmit, Stop, SessionStart, SessionEnd; the captures also
//     show PostCompaction (summary);
//   - answers (docs): exit 2 blocks the action with stderr for the agent,
//     other non-zero codes are logged and do not block; exit 0 stdout JSON
//     {decision: approve | block | deny, reason}. SessionStart context
//     through hookSpecificOutput.additionalContext (captured by a third
//     party); the docs say PreToolUse can "add context" and "modify" a
//     call, without naming the fields.
//
// hookshim therefore blocks with exit 2 and the reason on stderr, the one
// block both the docs and Claude Code's contract guarantee; approves with
// decision "approve"; sends context in Claude's envelope where the docs or
// a capture show it reaches the model; and never relies on an unnamed
// rewrite field, so a rewrite degrades (by default to a block with the
// rewritten input in the reason) rather than letting the original run.
//
// Devin also runs the hooks of .claude/settings.json with these payloads,
// so a registration written for Claude Code is called by Devin with
// --provider claude-code: the payload overrules that hint (no cwd and no
// transcript_path, which Claude Code always sends), and the answer is
// Devin's.
var DevinCLI = &Provider{
	ID:      "devin-cli",
	Name:    "Devin CLI",
	Install: devinInstall,
	Signals: []Signal{
		// Outweighs the --provider claude-code hint plus Claude's own
		// shared signals (prompt_id, its event names), so that Devin's
		// calls of Claude's registrations are answered as Devin's.
		{Weight: 12, desc: "session_id, prompt_id and a PascalCase hook_event_name, but no cwd, no transcript_path and no Anthropic tool call id", test: devinShape},
		{Weight: 6, desc: `tool_use_id is "<tool>:<n>#<32 hex>"`, test: func(p Payload) bool {
			return devinToolUseID(p.Get("tool_use_id").Str)
		}},
		OneOf("tool_name", 3, "exec", "read", "edit", "write", "grep", "glob", "apply_patch",
			"todo_write", "run_subagent", "read_subagent"),
		Is("hook_event_name", "PostCompaction", 4),
		EnvSet("DEVIN_PROJECT_DIR", 4),
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, CanContext},
		{"UserPromptSubmit", event.BeforePrompt, CanDeny},
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAllow | CanContext},
		{"PermissionRequest", event.PermissionRequest, CanDeny | CanAllow},
		{"PostToolUse", event.AfterToolExecute, 0},
		{"PostCompaction", event.AfterCompact, 0},
		// exit 2 denies the stop: the agent goes on with the reason.
		{"Stop", event.AgentStop, CanDeny},
		{"SessionEnd", event.SessionEnd, 0},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "session_id",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "tool_use_id",
		ToolOutput: "tool_response",
		ToolError:  "tool_response.error",
		Prompt:     "prompt",
	},
	Tools: Renames{
		{"exec", event.ToolShell},
		{"read", event.ToolFileRead},
		{"write", event.ToolFileWrite},
		{"edit", event.ToolFileEdit},
		{"apply_patch", event.ToolFileEdit},
		{"grep", event.ToolSearch},
		{"glob", event.ToolFind},
		{"run_subagent", event.ToolAgent},
	},
	SplitMCP:      splitDoubleUnderscore,
	Keep:          []Renames{claudeKeep, {{"summary", "compact_summary"}}},
	Encode:        encodeDevin,
	Dialect:       devinDialect,
	ProjectDirEnv: []string{"DEVIN_PROJECT_DIR"},
	Timeout:       30 * time.Second, // what devin_install.go writes
}

// devinShape: Devin's common fields are Claude's (hook_event_name,
// session_id, prompt_id) minus cwd and transcript_path, which Claude Code
// always sends. Auggie, which also lacks them, has no session_id; an
// Anthropic tool call id (toolu_…) is Claude Code's, not Devin's, so a
// hand-written Claude payload without cwd stays Claude's.
func devinShape(p Payload) bool {
	name := hookEventName(p)
	return name != "" && name[0] >= 'A' && name[0] <= 'Z' &&
		p.Get("session_id").Exists() && p.Get("prompt_id").Exists() &&
		!p.Get("cwd").Exists() && !p.Get("transcript_path").Exists() &&
		!strings.HasPrefix(p.Get("tool_use_id").Str, "toolu_")
}

// devinToolUseID reports whether id is Devin's tool call id,
// <internal tool>:<n>#<32 hex digits>.
func devinToolUseID(id string) bool {
	head, hex, ok := strings.Cut(id, "#")
	if !ok || len(hex) != 32 {
		return false
	}
	tool, n, ok := strings.Cut(head, ":")
	if !ok || tool == "" || n == "" {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	for _, c := range hex {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// encodeDevin writes a verdict, already degraded to what spec can
// express: a block is exit 2 with the reason on stderr, an approval
// decision "approve", context Claude's hookSpecificOutput.
func encodeDevin(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	if v.Decision == decision.Deny {
		reason := v.Reason
		if reason == "" {
			reason = "blocked by policy"
		}
		return Answer{Stderr: oneLineEnd(reason), Exit: 2}
	}
	top := &wire.Object{}
	if v.Decision == decision.Allow && spec.Can.Has(CanAllow) {
		top.Str("decision", "approve")
		if v.Reason != "" {
			top.Str("reason", v.Reason)
		}
	}
	if v.Context != "" {
		hso := &wire.Object{}
		hso.Str("hookEventName", spec.Native)
		hso.Str("additionalContext", v.Context)
		top.Obj("hookSpecificOutput", hso)
	}
	return JSONOrEmpty(top)
}

// devinDialect is what a Devin CLI hook reads: Claude's event names and
// answers with its own tool names, no cwd or transcript path.
var devinDialect = &Dialect{
	EventKey: "hook_event_name",
	Read:     readDevin,
}

// readDevin reads a Devin CLI hook's answer (claudeReader).
func readDevin(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "Devin CLI"}.read(spec, exit, stdout, stderr)
}
