package provider

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/tidwall/gjson"
)

// Dialect is what a hook written for this tool expects beyond what the
// rest of the table says: hookshim speaks it to a handler marked
// "dialect": "<id>" whatever tool called (internal/dialect builds the
// payload from the table read backwards, native ← canonical). nil for a
// tool without command hooks: no handler can be written for it.
type Dialect struct {
	// EventKey is the payload key that names the event; "" when the
	// payload carries no name (the hook was registered for one event).
	EventKey string
	// EventValue spells a native event (as Events names it) the way the
	// tool writes it under EventKey; nil: as Events names it.
	EventValue func(native string) string

	// Pick chooses the native event for canonical event name where the
	// tool has several (Windsurf and Cursor split tool events by kind):
	// "" when it has none; ok false (or a nil Pick) takes the first in
	// Events.
	Pick func(ev *event.Event, name event.Name) (native string, ok bool)

	// Always are the keys the tool sends on every call beside Fields, as
	// {key, source}: the source is one of the From constants or else
	// names a canonical data field (permission_mode). A key whose source
	// the caller did not send is left out, and said.
	Always Renames

	// Env are the variables the tool sets for its hooks beside
	// ProjectDirEnv (which get the project folder), as {name, source}
	// like Always.
	Env Renames

	// Shell is how the tool starts a hook's command line: the program
	// and its flags before the line ({"bash", "-c"}). nil: sh -c, as
	// Claude Code and the tools that spawn through a shell do, so that a
	// script without a #! line and shell syntax in the command work as
	// they do there.
	Shell []string

	// EnvFile names the variable through which the tool hands its hooks,
	// on EnvFileEvents, a file to append `export NAME=value` lines to,
	// which it loads into the session's later commands (Claude Code's
	// CLAUDE_ENV_FILE); "" for none.
	EnvFile       string
	EnvFileEvents []string

	// EnvAnswerEvents are the native events whose answer may set the
	// session's variables as an object (Cursor's sessionStart env,
	// decision.Output.Env): where the tool has no env file, a hook's
	// exports are given to it there.
	EnvAnswerEvents []string

	// Inputs are the tool-input keys that differ from the canonical ones
	// (Claude Code's: command, file_path, content, old_string,
	// new_string, pattern, path, url, prompt), per canonical tool.
	Inputs []InputKeys

	// MultiEdit is the tool that takes several edits of one file as
	// edits[] of old_string and new_string (Claude Code's MultiEdit); ""
	// when the dialect has none: its edit tool gets the first edit, and
	// all of them in edits.
	MultiEdit string

	// PatchTool is the tool through which the dialect's agent writes
	// every file, as one patch in the apply_patch grammar under the
	// input key PatchKey (Codex: apply_patch, command); "" when it has
	// write and edit tools of their own. A write or edit of another tool
	// reaches such a hook as that patch.
	PatchTool, PatchKey string

	// Transcript is the format its hooks read at Fields.Transcript (one
	// of the Transcript constants): another tool's transcript is written
	// again in it for the call. "" when hookshim writes none: the
	// caller's is given as it is, and the call says so.
	Transcript string

	// Response is the shape its hooks read a tool's result in (one of
	// the Response constants): another tool's result is written again in
	// it. "" when hookshim writes none: the caller's is given as it is.
	Response string

	// CwdIsProject: the key of Fields.Cwd holds the tool's project folder,
	// where it runs its tools and hooks (Jan's project_root), so the
	// payload gets the project folder there, not the folder the caller's
	// command ran in.
	CwdIsProject bool

	// ProjectMarkers are what marks the project folder the tool gives its
	// hooks, beside .git and the project's .openhook.json: its own config
	// folder (.claude). The project folder is the nearest folder above the
	// caller's that holds one, as the tool finds it, never the folder a
	// command runs in.
	ProjectMarkers []string

	// MCPName writes an MCP tool's native name; nil: mcp__server__tool.
	MCPName func(server, tool string) string

	// Finish puts what Fields cannot say into the payload (a tool that
	// moves with the event, say), given the payload written so far and
	// the native tool name and input (in the tool's keys); nil for none.
	Finish func(doc []byte, spec *Spec, ev *event.Event, tool string, input []byte) ([]byte, error)

	// Read turns a hook's answer to native event spec (its exit code,
	// stdout and stderr) into the canonical output, by the tool's
	// contract: the inverse of Encode.
	Read func(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error)
}

// EventSpelling is native as the tool writes it under EventKey.
func (d *Dialect) EventSpelling(native string) string {
	if d.EventValue == nil {
		return native
	}
	return d.EventValue(native)
}

// TranscriptClaude is Claude Code's transcript: JSON lines of type user
// and assistant, each a message whose content holds text, tool_use and
// tool_result blocks.
const TranscriptClaude = "claude-jsonl"

// TranscriptGemini is Gemini CLI's session file: one JSON document whose
// messages are of type user and gemini, tool calls with their results in
// a gemini message's toolCalls.
const TranscriptGemini = "gemini-json"

// Tool-result shapes (Dialect.Response).
const (
	// ResponseClaude is Claude Code's tool_response: a command's
	// {stdout, stderr, interrupted, isImage}, a write's {filePath,
	// success}, a read's {type: "text", file: {filePath, content}}.
	ResponseClaude = "claude"
	// ResponseGemini is Gemini CLI's tool_response: {llmContent,
	// returnDisplay}, a command's output in llmContent's sections.
	ResponseGemini = "gemini"
)

// Where a value of Dialect.Always or Dialect.Env comes from, when it is
// not a canonical data field.
const (
	FromProjectDir   = "@project_dir"   // the project folder
	FromProjectRoots = "@project_roots" // the project folder as a one-element array
	FromCwd          = "@cwd"
	FromSessionID    = "@session_id"
	FromPrompt       = "@prompt"
	FromNow          = "@now"           // the time of the call, ISO 8601
	FromNowMillis    = "@now_ms"        // the time of the call, epoch milliseconds (a number)
	FromNowMillisStr = "@now_ms_string" // the same as a string (Cline)
	FromEvent        = "@event"         // the event, spelt as under EventKey (Grok's GROK_HOOK_EVENT)
)

// Literal is a source of Dialect.Always or Dialect.Env that is v itself:
// a variable the tool sets to the same value for every hook (Tabnine
// CLI's TABNINE_CLI=1). (No canonical data field starts with "=".)
func Literal(v string) string { return "=" + v }

// FileInputAliases are the keys other tools' file tools use for what the
// canonical keys (Claude Code's) name, native to canonical. They are read
// for a caller whose own Inputs table does not rename a key, whichever
// tool it is (a tool without command hooks has no Inputs, yet its calls
// reach dialect handlers): a hook that checks content or new_string
// must see them under its own names. A key is renamed only where the
// canonical key is not there already.
var FileInputAliases = []InputKeys{
	{event.ToolFileWrite, Renames{
		{"filePath", "file_path"},      // OpenCode, VS Code
		{"path", "file_path"},          // Copilot, Cline, Kiro, Kimi Code
		{"absolute_path", "file_path"}, // Gemini CLI's older read_file
		{"target_file", "file_path"},   // Cursor
		{"file_text", "content"},       // Copilot's create, Kiro CLI's fs_write create
		{"text", "content"},            // Kiro IDE 1.x's fs_write
		{"fileContent", "content"},
		{"old_str", "old_string"}, // Kiro CLI's fs_write str_replace
		{"new_str", "new_string"},
	}},
	{event.ToolFileEdit, Renames{
		{"filePath", "file_path"},
		{"path", "file_path"},
		{"target_file", "file_path"},
		{"oldString", "old_string"}, // OpenCode, VS Code
		{"newString", "new_string"},
		{"old_str", "old_string"}, // Copilot, Kiro
		{"new_str", "new_string"},
		{"old_text", "old_string"}, // Cline
		{"new_text", "new_string"},
		{"replaceAll", "replace_all"}, // OpenCode
	}},
	{event.ToolFileRead, Renames{
		{"filePath", "file_path"},
		{"path", "file_path"},
		{"absolute_path", "file_path"},
		{"target_file", "file_path"},
	}},
}

// InputKeys are the tool-input keys of one canonical tool, native to
// canonical.
type InputKeys struct {
	Tool string // canonical tool name
	Keys Renames
}

// InputKeysFor returns the renames of one canonical tool's input keys.
func (d *Dialect) InputKeysFor(tool string) Renames {
	if d == nil {
		return nil
	}
	for _, in := range d.Inputs {
		if in.Tool == tool {
			return in.Keys
		}
	}
	return nil
}

// Commanded lists the providers whose hooks are commands, in registry
// order: the dialects a handler may speak.
func Commanded() []*Provider {
	var out []*Provider
	for _, p := range All {
		if p.Dialect != nil {
			out = append(out, p)
		}
	}
	return out
}

// answerObject reads a hook's stdout as one JSON object; ok is false when
// it is empty or anything else.
func answerObject(stdout []byte) (gjson.Result, bool) {
	s := bytes.TrimSpace(stdout)
	if len(s) == 0 || s[0] != '{' || !gjson.ValidBytes(s) {
		return gjson.Result{}, false
	}
	return gjson.ParseBytes(s), true
}

// nativeKind reads the decision words the tools use: allow, deny and
// ask, with block and approve as their older spellings.
func nativeKind(s string) (decision.Kind, error) {
	switch s {
	case "allow", "approve":
		return decision.Allow, nil
	case "deny", "block":
		return decision.Deny, nil
	case "ask":
		return decision.Ask, nil
	}
	return decision.None, fmt.Errorf("decision %q is not allow, deny or ask", s)
}

// exitFailed is a hook's exit that its tool reads as a failure of the hook
// (shown, then ignored): a handler failure for hookshim.
func exitFailed(tool string, exit int, stderr string) error {
	line, _, _ := strings.Cut(stderr, "\n")
	if line != "" {
		line = ": " + line
	}
	return fmt.Errorf("exited %d, which %s reads as a failed hook%s", exit, tool, line)
}

// orBlocked is a block reason, never empty.
func orBlocked(reason string) string {
	if reason = strings.TrimSpace(reason); reason == "" {
		return "blocked by a hook"
	}
	return reason
}

// stopOf reads continue:false and its stopReason into o.
func stopOf(doc gjson.Result, o *decision.Output, reasonKey string) {
	if c := doc.Get("continue"); c.Type == gjson.False {
		f := false
		o.Continue = &f
		if r := doc.Get(reasonKey).Str; r != "" && o.Reason == "" {
			o.Reason = r
		}
	}
}

// objectRaw returns an object value's JSON, nil for anything else.
func objectRaw(r gjson.Result) []byte {
	if r.IsObject() {
		return []byte(r.Raw)
	}
	return nil
}

// firstNative is the first native event of pr with canonical name n, "" for none.
func firstNative(pr *Provider, n event.Name) string {
	for _, s := range pr.Events {
		if s.Canonical == n {
			return s.Native
		}
	}
	return ""
}

// NativeEvent is the native event a hook written for pr gets for the
// canonical event name of ev; "" when pr has none.
func (pr *Provider) NativeEvent(ev *event.Event, name event.Name) string {
	if pr.Dialect != nil && pr.Dialect.Pick != nil {
		if n, ok := pr.Dialect.Pick(ev, name); ok {
			return n
		}
	}
	return firstNative(pr, name)
}
