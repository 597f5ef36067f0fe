package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Augment's Auggie CLI.
//
// Sources: docs.augmentcode.com/cli/hooks (1.x) and /cli/v0/hooks (0.x),
// read 2026-11, and the hook code bundled in @augmentcode/auggie 0.36.0
// (augment.mjs, read here: the payload builders, the zod schema of the
// answer and the router that sends its fields to the agent or the user).
// Auggie 0.36.0 runs in make e2e against a loopback stand-in for Augment's
// backend (hooks run only when its get-models answer turns on the
// enable_hooks flag): it fires SessionStart, PromptSubmit, PreToolUse,
// PostToolUse, Stop and SessionEnd; PreToolUse deny and rewrite and
// PostToolUse context work (the context is appended to the tool result
// under "[Hook Context]"); a PreToolUse ask runs the call; a Stop block is
// dropped (below); SessionStart and PromptSubmit answers are never read
// (the prompt goes out before the hook ends). So SessionStart, PromptSubmit
// and Stop are observed only, whatever the schema offers. The rest is from
// the docs and the bundle:
//   - Claude's event names for PreToolUse, PostToolUse, Stop, SessionStart,
//     SessionEnd, Notification, and PromptSubmit (1.x) — not
//     UserPromptSubmit;
//   - stdin: hook_event_name, conversation_id and workspace_roots[]; there
//     is no session_id, cwd or transcript_path. Tool events add tool_name,
//     tool_input and is_mcp_tool; PostToolUse tool_output, tool_error and
//     sometimes file_changes; Stop agent_stop_cause; Notification
//     notification_type and notification_message; PromptSubmit user_prompt.
//     The environment has AUGMENT_PROJECT_DIR (the first workspace root),
//     AUGMENT_CONVERSATION_ID, AUGMENT_HOOK_EVENT and AUGMENT_TOOL_NAME;
//   - answers: top-level continue (false only blocks a PreToolUse call;
//     it never ends the loop), stopReason, suppressOutput,
//     systemMessage; hookSpecificOutput selected by its hookEventName:
//     PreToolUse permissionDecision allow|deny|ask (+Reason) and
//     updatedInput, of which the agent loop acts on deny and updatedInput
//     only; PostToolUse decision "block", reason and
//     additionalContext (the reason only goes to the agent, like context);
//     Stop decision "block" and reason — INSIDE hookSpecificOutput, unlike
//     Claude Code (parsed, then dropped: triggerStopHook awaits onStop and
//     ignores what it returns); SessionStart additionalContext (never
//     read, above). The schema is a union
//     on hookEventName without PromptSubmit: a hookSpecificOutput for it
//     voids the whole answer. PromptSubmit is observed only: the agent
//     loop fires it without waiting (firePromptSubmitHook calls
//     onPromptSubmit and only catches its error), so nothing it answers
//     can block the prompt or reach the model;
//   - exit 2 blocks PreToolUse only; other codes never block. hookshim
//     answers exit 0 with JSON.
//
// Detection: conversation_id and workspace_roots with PascalCase event
// names and neither session_id nor Cursor's cursor_version (Cursor sends
// the same two keys with camelCase events).
var Auggie = &Provider{
	ID:       "auggie",
	Name:     "Auggie",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  auggieInstall,
	Signals: []Signal{
		{Weight: 7, desc: "conversation_id and workspace_roots without session_id or cursor_version", test: func(p Payload) bool {
			return p.Get("conversation_id").Type == gjson.String && p.Get("workspace_roots").IsArray() &&
				!p.Get("session_id").Exists() && !p.Get("cursor_version").Exists()
		}},
		OneOf("hook_event_name", 2, "PromptSubmit"),
		Has("is_mcp_tool", 3),
		Has("agent_stop_cause", 3),
		Has("notification_message", 2),
		OneOf("tool_name", 2, "launch-process", "view", "str-replace-editor", "save-file", "remove-files",
			"codebase-retrieval", "web-fetch", "web-search", "read-process", "kill-process", "write-process"),
		Has("cursor_version", -6),
		Has("generation_id", -4),
		EnvSet("AUGMENT_HOOK_EVENT", 3),
		EnvSet("AUGMENT_CONVERSATION_ID", 2),
	},
	Events: []Spec{
		// The answer's schema has SessionStart additionalContext, but 0.36.0
		// discards what the hook answers (measured): no channel is claimed.
		{"SessionStart", event.SessionStart, 0},
		{"PromptSubmit", event.BeforePrompt, 0},
		// Only a deny (or continue: false) and updatedInput are read before
		// the call; permissionDecision "ask" and "allow" are never looked at
		// (the reason of an ask only goes to the user). Measured with 0.36.0
		// --print: an ask ran the command, with no prompt; continue: false
		// blocked the call and the loop went on to the next model request,
		// its stopReason shown nowhere. So an ask and a stop are degraded
		// (to a deny, by default) and an allow is no opinion.
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanRewrite},
		// decision "block" only adds the reason to the agent's messages
		// ("PostToolUse cannot block anything", docs): a deny is context.
		// continue: false is never read (measured with 0.36.0: the loop
		// went on).
		{"PostToolUse", event.AfterToolExecute, CanContext},
		{"Notification", event.Notification, 0},
		// The schema reads decision "block" (and continue: false) here, but
		// the agent loop awaits the Stop hook and drops its result: measured
		// with 0.36.0 --print, a block's reason reached no later model
		// request and the run ended. Observed only.
		{"Stop", event.AgentStop, 0},
		{"SessionEnd", event.SessionEnd, 0},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "conversation_id",
		Cwd:        "workspace_roots.0",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolOutput: "tool_output",
		ToolError:  "tool_error",
		Prompt:     "user_prompt",
	},
	// Auggie's built-in tools (kebab-case ids); launch-process runs a
	// shell command {command, wait, max_wait_seconds, cwd}.
	Tools: Renames{
		{"launch-process", event.ToolShell},
		{"view", event.ToolFileRead},
		{"save-file", event.ToolFileWrite},
		{"str-replace-editor", event.ToolFileEdit},
		{"web-search", event.ToolWebSearch},
		{"web-fetch", event.ToolWebFetch},
	},
	Keep: []Renames{{
		{"workspace_roots", "workspace_roots"},
		{"is_mcp_tool", "is_mcp_tool"},
		{"file_changes", "file_changes"},
		{"agent_stop_cause", "agent_stop_cause"},
		{"notification_type", "notification_type"},
		{"notification_message", "message"},
	}},
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		// PostToolUse carries tool_error beside tool_output: the canonical
		// error is only read for failures, so keep it for handlers.
		if e := p.Get("tool_error"); e.Exists() && e.Type != gjson.Null {
			ev.Set("tool_error", []byte(e.Raw))
		}
	},
	Encode:        encodeAuggie,
	Timeout:       30 * time.Second, // what auggie_install.go writes
	ProjectDirEnv: []string{"AUGMENT_PROJECT_DIR"},
}

// encodeAuggie writes Auggie's answer: Claude's top level, and every
// decision inside hookSpecificOutput.
func encodeAuggie(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	top := &wire.Object{}
	hso := &wire.Object{}
	hso.Str("hookEventName", spec.Native)
	specific := false
	switch spec.Canonical {
	case event.BeforeToolExecute:
		if d := permission(v); d != "" {
			hso.Str("permissionDecision", d)
			if v.Reason != "" && v.Decision != decision.Allow {
				hso.Str("permissionDecisionReason", v.Reason)
			}
			specific = true
		}
		if v.UpdatedInput != nil && v.Decision != decision.Deny {
			hso.Raw("updatedInput", v.UpdatedInput)
			specific = true
		}
	default:
		if v.Decision == decision.Deny {
			hso.Str("decision", "block")
			if v.Reason != "" {
				hso.Str("reason", v.Reason)
			}
			specific = true
		}
	}
	if v.Context != "" {
		hso.Str("additionalContext", v.Context)
		specific = true
	}
	stopFields(top, v)
	if specific {
		top.Obj("hookSpecificOutput", hso)
	}
	return JSONOrEmpty(top)
}
