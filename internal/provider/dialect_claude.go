package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// The Claude-derived dialect: snake_case stdin with session_id, cwd,
// transcript_path and hook_event_name; camelCase stdout with
// hookSpecificOutput.hookEventName. Claude Code defined it; Codex, Qwen Code,
// Factory Droid, Kimi Code and Copilot's PascalCase registrations speak
// variants of it. What differs between them stays in their own files.

var claudeFields = Fields{
	SessionID:  "session_id",
	Cwd:        "cwd",
	Transcript: "transcript_path",
	Model:      "model",
	ToolName:   "tool_name",
	ToolInput:  "tool_input",
	ToolCallID: "tool_use_id",
	ToolOutput: "tool_response",
	ToolError:  "error",
	Prompt:     "prompt",
}

// claudeKeep are the per-event fields of the Claude dialect that handlers
// see under the same name.
var claudeKeep = Renames{
	{"source", "source"},
	{"reason", "reason"},
	{"trigger", "trigger"},
	{"message", "message"},
	{"title", "title"},
	{"notification_type", "notification_type"},
	{"stop_hook_active", "stop_hook_active"},
	{"last_assistant_message", "last_assistant_message"},
	{"agent_id", "agent_id"},
	{"agent_type", "agent_type"},
	{"agent_transcript_path", "agent_transcript_path"},
	{"custom_instructions", "custom_instructions"},
	{"compact_summary", "compact_summary"},
	{"permission_mode", "permission_mode"},
	{"error_details", "error_details"},
	{"is_interrupt", "is_interrupt"},
	{"duration_ms", "duration_ms"},
	{"permission_suggestions", "permission_suggestions"},
	{"file_path", "file_path"},
	{"memory_type", "memory_type"},
	{"load_reason", "load_reason"},
	{"old_cwd", "old_cwd"},
	{"new_cwd", "new_cwd"},
	{"task_id", "task_id"},
	{"task_subject", "task_subject"},
	{"task_description", "task_description"},
	{"teammate_name", "teammate_name"},
	{"team_name", "team_name"},
	{"mcp_server_name", "mcp_server_name"},
	// PreSkillShellCommand (2.1.332): which skill or command holds the
	// inline shell command, where it comes from, and who invoked it.
	{"command_name", "command_name"},
	{"command_source", "command_source"},
	{"invoked_by", "invoked_by"},
	// Claude Code 2.1.330 (hooks reference v2.1.240): prompt_id and effort
	// on most events, session_title on SessionStart, background work on
	// Stop/SubagentStop, InstructionsLoaded's rule paths, and the MCP
	// elicitation fields.
	{"prompt_id", "prompt_id"},
	{"effort", "effort"},
	{"session_title", "session_title"},
	{"background_tasks", "background_tasks"},
	{"session_crons", "session_crons"},
	{"globs", "globs"},
	{"trigger_file_path", "trigger_file_path"},
	{"parent_file_path", "parent_file_path"},
	{"mode", "mode"},
	{"url", "url"},
	{"elicitation_id", "elicitation_id"},
	{"requested_schema", "requested_schema"},
	{"action", "action"},
	{"content", "content"},
}

// adjustClaudeDialect finishes normalization for the Claude dialect's
// per-event fields that cannot be kept under their own name: StopFailure's
// error (tool failures use "error" for the tool's error) and FileChanged's
// event (the canonical data's "event" is the event name).
func adjustClaudeDialect(p Payload, spec *Spec, ev *event.Event) {
	switch spec.Native {
	case "StopFailure":
		if e := p.Get("error"); e.Exists() {
			ev.Set("error", []byte(e.Raw))
		}
	case "FileChanged":
		if e := p.Get("event"); e.Exists() {
			ev.Set("file_event", []byte(e.Raw))
		}
	}
}

// uuidVersion returns the version digit of a canonical UUID string, or 0.
// Codex thread ids are version 7 (time-ordered), Claude Code's session ids
// version 4 (random).
func uuidVersion(s string) byte {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return 0
	}
	for i := 0; i < 36; i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			continue
		}
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return 0
		}
	}
	return s[14]
}

// splitDoubleUnderscore splits mcp__<server>__<tool>.
func splitDoubleUnderscore(native string, _ Payload) *event.MCP {
	rest, ok := strings.CutPrefix(native, "mcp__")
	if !ok {
		return nil
	}
	server, tool, ok := strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return nil
	}
	return &event.MCP{Server: server, Tool: tool}
}

// hookEventName reads hook_event_name.
func hookEventName(p Payload) string { return p.Get("hook_event_name").Str }

// claudeStyle says how a Claude-dialect tool differs in what it accepts.
type claudeStyle struct {
	// explicitAllow: permissionDecision "allow" may be sent without a
	// rewrite (Codex rejects it).
	explicitAllow bool

	// exitBlock lists native events whose denial only exit 2 expresses
	// (Claude Code's TaskCompleted and TeammateIdle). The answer then
	// exits 2 with the reason on stderr, and its JSON carries the same
	// decision "block" and reason for versions that read it.
	exitBlock []string
}

// encode writes a verdict in the Claude dialect. The verdict is already
// degraded to what spec can express.
func (cs claudeStyle) encode(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	top := &wire.Object{}
	hso := &wire.Object{}
	hso.Str("hookEventName", spec.Native)
	specific := false
	msg := v.SystemMessage

	switch spec.Canonical {
	case event.BeforeToolExecute:
		decisionStr := ""
		switch v.Decision {
		case decision.Deny:
			decisionStr = "deny"
		case decision.Ask:
			decisionStr = "ask"
		case decision.Defer:
			decisionStr = "defer"
		case decision.Allow:
			if cs.explicitAllow || v.UpdatedInput != nil {
				decisionStr = "allow"
			}
		case decision.None:
			if v.UpdatedInput != nil {
				// A rewrite is an approval of the rewritten input: the
				// Claude dialect applies updatedInput only with allow or ask.
				decisionStr = "allow"
			}
		}
		if decisionStr != "" {
			hso.Str("permissionDecision", decisionStr)
			if v.Reason != "" {
				hso.Str("permissionDecisionReason", v.Reason)
			}
			specific = true
		}
		if v.UpdatedInput != nil && v.Decision != decision.Deny && v.Decision != decision.Defer {
			hso.Raw("updatedInput", v.UpdatedInput)
			specific = true
		}
	case event.PermissionRequest:
		d := &wire.Object{}
		switch v.Decision {
		case decision.Allow, decision.None:
			// A rewrite is an approval of the rewritten input, as on
			// PreToolUse: updatedInput exists only inside behavior "allow"
			// (hooks reference v2.1.240, PermissionRequest decision control;
			// the tool re-checks the new input against its deny and ask
			// rules). No decision object at all lets the permission dialog
			// show (Codex: "decline to decide and let the normal approval
			// flow continue", events/permission_request.rs), which is how an
			// "ask" is answered here.
			if v.Decision == decision.Allow || v.UpdatedInput != nil {
				d.Str("behavior", "allow")
			}
			if v.UpdatedInput != nil {
				d.Raw("updatedInput", v.UpdatedInput)
			}
		case decision.Deny:
			d.Str("behavior", "deny")
			if v.Reason != "" {
				d.Str("message", v.Reason)
			}
		case decision.Ask:
			// The dialog shows; the reason goes to the user beside it.
			if v.Reason != "" && spec.Can.Has(CanMessage) {
				msg = claudeJoin(msg, v.Reason)
			}
		}
		if d.Len() > 0 {
			hso.Obj("decision", d)
			specific = true
		}
	default:
		if v.Decision == decision.Deny {
			top.Str("decision", "block")
			if v.Reason != "" {
				top.Str("reason", v.Reason)
			}
		}
	}
	if v.Context != "" {
		hso.Str("additionalContext", v.Context)
		specific = true
	}
	stopFields(top, v)
	if v.SuppressOutput {
		top.Bool("suppressOutput", true)
	}
	if msg != "" {
		top.Str("systemMessage", msg)
	}
	if specific {
		top.Obj("hookSpecificOutput", hso)
	}
	ans := JSONOrEmpty(top)
	if v.Decision == decision.Deny && slices.Contains(cs.exitBlock, spec.Native) {
		reason := v.Reason
		if reason == "" {
			reason = "blocked by policy"
		}
		ans.Exit = 2
		ans.Stderr = reason + "\n"
	}
	return ans
}

// claudeJoin joins two messages with a newline, skipping empty ones.
func claudeJoin(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// claudeDialect is the Claude dialect as a hook written for Claude Code
// expects it; the look-alikes share it where their hooks read the same
// payload keys (their own tool names and variables come from their table).
var claudeDialect = &Dialect{
	EventKey:  "hook_event_name",
	MultiEdit: "MultiEdit",
	// Claude Code's CLAUDE_PROJECT_DIR is the folder it was started in,
	// the project root.
	ProjectMarkers: []string{".claude"},
	Transcript:     TranscriptClaude,
	Response:       ResponseClaude,
	Always:         Renames{{"permission_mode", "permission_mode"}},
	// (hooks reference, "Persist environment variables")
	EnvFile:       "CLAUDE_ENV_FILE",
	EnvFileEvents: []string{"SessionStart", "Setup", "CwdChanged", "FileChanged"},
	Read:          readClaude,
}

// The dialect of a tool whose hooks read Claude Code's payload keys,
// permission_mode on every call, and answer by Claude's contract as it
// stood before Claude Code read JSON on any exit code (plain stdout is
// context on SessionStart and UserPromptSubmit only), with nothing of the
// tool's own beside its name in the errors of the answers read: CodeBuddy
// Code, Qoder CLI and Snowflake Cortex Code write
//
//	&Dialect{EventKey: "hook_event_name", Always: lookalikeAlways, Read: readName}
//
// with readName calling claudeReader{tool: name, plain: lookalikePlain}.read
// (a literal each, not a function that builds them, and a function, not
// the method value claudeReader{…}.read: either would be built at every
// start of hookshim, TestInitCost).
var (
	lookalikeAlways = Renames{{"permission_mode", "permission_mode"}}
	lookalikePlain  = []string{"SessionStart", "UserPromptSubmit"}
)

// claudeReader reads an answer in the Claude dialect (hooks reference,
// "Hook output"): exit 2 blocks with stderr as the reason; another
// non-zero exit is a non-blocking error; exit 0 is JSON, or plain text,
// which is context on the events named in plain and only logged
// elsewhere.
type claudeReader struct {
	tool  string
	plain []string
	// anyExitJSON: JSON is read on every exit code (Claude Code from
	// v2.1.228): with exit 2 its reason is the block's, with another
	// code the JSON alone decides.
	anyExitJSON bool
	// exit2NeedsReason: exit 2 with nothing on stderr is a failed hook,
	// not a block (Codex, output_parser.rs).
	exit2NeedsReason bool
	// contextKey: a top-level key whose string is context when the JSON
	// gives none otherwise (Kimi Code's "message").
	contextKey string
}

func (cr claudeReader) read(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	var o decision.Output
	doc, isJSON := answerObject(stdout)
	switch {
	case exit == 2:
		if cr.exit2NeedsReason && strings.TrimSpace(stderr) == "" {
			return o, fmt.Errorf("exited 2 without a reason on stderr, which %s reads as a failed hook", cr.tool)
		}
		reason := stderr
		if cr.anyExitJSON && isJSON {
			var j decision.Output
			if readClaudeJSON(doc, &j) == nil && j.Reason != "" {
				reason = j.Reason
			}
		}
		o.Decision, o.Reason = decision.Deny, orBlocked(reason)
		return o, nil
	case exit != 0 && !(cr.anyExitJSON && isJSON):
		return o, exitFailed(cr.tool, exit, stderr)
	}
	if !isJSON {
		if text := strings.TrimSpace(string(stdout)); text != "" && slices.Contains(cr.plain, spec.Native) {
			o.Context = text
		}
		return o, nil
	}
	err := readClaudeJSON(doc, &o)
	if cr.contextKey != "" && o.Context == "" {
		o.Context = doc.Get(cr.contextKey).Str
	}
	return o, err
}

// readClaudeJSON reads the Claude dialect's JSON answer into o.
func readClaudeJSON(doc gjson.Result, o *decision.Output) error {
	if d := doc.Get("decision"); d.Type == gjson.String && d.Str != "" {
		// Top-level "block" (PostToolUse, Stop, UserPromptSubmit...), and
		// PreToolUse's deprecated approve/block.
		k, err := nativeKind(d.Str)
		if err != nil {
			return err
		}
		o.Decision, o.Reason = k, doc.Get("reason").Str
	}
	hso := doc.Get("hookSpecificOutput")
	if pd := hso.Get("permissionDecision"); pd.Type == gjson.String && pd.Str != "" {
		k, err := decision.Defer, error(nil)
		if pd.Str != "defer" {
			k, err = nativeKind(pd.Str)
		}
		if err != nil {
			return fmt.Errorf("permissionDecision: %w", err)
		}
		o.Decision = max(o.Decision, k)
		if r := hso.Get("permissionDecisionReason").Str; r != "" {
			o.Reason = r
		}
	}
	if d := hso.Get("decision"); d.IsObject() { // PermissionRequest
		if b := d.Get("behavior").Str; b != "" {
			k, err := nativeKind(b)
			if err != nil {
				return fmt.Errorf("decision.behavior: %w", err)
			}
			o.Decision = max(o.Decision, k)
		}
		if m := d.Get("message").Str; m != "" {
			o.Reason = m
		}
		if in := objectRaw(d.Get("updatedInput")); in != nil {
			o.UpdatedInput = in
		}
		if d.Get("interrupt").Type == gjson.True {
			f := false
			o.Continue = &f
		}
	}
	if in := objectRaw(hso.Get("updatedInput")); in != nil {
		o.UpdatedInput = in
	}
	o.Context = hso.Get("additionalContext").Str
	stopOf(doc, o, "stopReason")
	o.SuppressOutput = doc.Get("suppressOutput").Type == gjson.True
	o.SystemMessage = doc.Get("systemMessage").Str
	return nil
}

// readClaude reads a Claude Code hook's answer (claudeReader).
func readClaude(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "Claude Code", anyExitJSON: true, plain: []string{"SessionStart", "UserPromptSubmit", "UserPromptExpansion"}}.read(spec, exit, stdout, stderr)
}
