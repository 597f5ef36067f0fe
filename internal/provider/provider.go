// Package provider is the table of AI coding tools hookshim speaks to.
//
// Everything about one tool lives in its own file: how to recognise its
// payloads, its native events and what each can express, where its fields
// are, how its tool names map to the canonical vocabulary, and how to write
// an answer in its dialect; where and how `hookshim install` registers it
// is in <tool>_install.go beside it. The stage packages (detect, normalize,
// respond, install) are engines that consult this table: adding a tool is
// those two files, one line in registry.go, and its fixtures and goldens
// (docs/architecture.md, "Add a provider", checked by a test).
package provider

import (
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
)

// Provider describes one tool's hook protocol.
type Provider struct {
	ID   string // Hook Interchange slug, e.g. "claude-code"
	Name string // e.g. "Claude Code"

	// Verified says how the protocol below was checked, with the source
	// ("from docs: <url>", "from source: <package and version>"), for
	// `hookshim providers` and docs/providers.md; "" where the provider's
	// file comment says it.
	Verified string

	// Signals are the evidence that a call came from this tool. Payload
	// signals outweigh environment signals: variables leak into child
	// processes and several tools set each other's (Gemini and Cursor set
	// CLAUDE_PROJECT_DIR).
	Signals []Signal

	// Events lists the native events the tool sends.
	Events []Spec

	// EventName reads the native event name from a payload; "" when the
	// payload does not carry one (then --event names it, or else one of
	// Shapes).
	EventName func(p Payload) string

	// Shapes name the event of a payload that carries none, for a call
	// without --event (see shape.go); only a payload that fits exactly one
	// is named.
	Shapes []Shape

	// Fields says where the common fields are in the payload.
	Fields Fields

	// Tools maps native tool names to canonical ones.
	Tools Renames

	// Calls is where a payload of several tool calls keeps them (calls.go);
	// zero for a tool that sends one per hook call.
	Calls Calls

	// SplitMCP splits a native MCP tool name into server and tool; nil
	// when the name is not an MCP tool.
	SplitMCP func(native string, p Payload) *event.MCP

	// Keep lists payload keys copied into the canonical data as they are,
	// under the canonical key given (per-event fields such as source or
	// stop_hook_active): the tables of the tool's dialect, then its own.
	Keep []Renames

	// Adjust finishes provider-specific normalization (split events,
	// failure variants, prompt content parts...). May be nil.
	Adjust func(p Payload, spec *Spec, ev *event.Event)

	// Encode writes a verdict, already degraded to what spec can express,
	// in the tool's dialect. spec is nil when the native event is unknown:
	// the answer must then be the tool's neutral "no opinion".
	Encode func(spec *Spec, v *decision.Verdict) Answer

	// SetInput puts a tool input into a sample payload (hookshim simulate
	// --tool-input); nil means "replace the value at Fields.ToolInput".
	SetInput func(raw, input []byte) ([]byte, error)

	// Timeout is the hook timeout `hookshim install` writes for this tool
	// (or the tool's own default where it cannot be set). hookshim must
	// answer before it runs out: handler deadlines are clipped to it.
	Timeout time.Duration

	// Install says where and how `hookshim install` registers hookshim in
	// the tool's native config; nil when it cannot.
	Install *Install

	// ByHand, for a tool without Install, renders the registration the
	// user adds by hand, from the hookshim command line it runs; install
	// prints it. nil when there is none to give.
	ByHand func(command string) string

	// SplitEvents: the tool fires a generic and a specific event for one
	// action (Cursor: preToolUse and beforeShellExecution) and only one of
	// them carries a tool call id, so duplicates are recognised by content.
	SplitEvents bool

	// VersionAt is where the tool's own version is, when it says it: a
	// payload path, then a variable it sets for its hooks. For the
	// decision log, and payload drift per tool version in doctor.
	VersionAt  string
	VersionEnv string

	// ProjectDirEnv lists variables the tool sets to the project root.
	ProjectDirEnv []string

	// NeutralExit is the exit code of the tool's "no opinion" where exit
	// 0 means "approve" (Amp's delegate programs: 0 allows the call, 1
	// asks the operator): hookshim's neutral answer, also on its own
	// failures, must not approve what no handler approved. 0 elsewhere.
	NeutralExit int

	// TextStdout reports that the tool reads no JSON: stdout of a
	// successful hook is plain text for the model (Kiro), so the encoder
	// prints text there, never a JSON document.
	TextStdout bool

	// Dialect is how a hook written for this tool is spoken to when
	// another tool calls (dialect.go); nil: the tool has no command hooks.
	Dialect *Dialect
}

// Version is the tool's version as the payload or the environment says
// it; "" when neither does.
func (pr *Provider) Version(p Payload) string {
	if pr.VersionAt != "" {
		if v := p.Get(pr.VersionAt); v.Type == gjson.String || v.Type == gjson.Number {
			return v.String()
		}
	}
	if pr.VersionEnv != "" && p.Env != nil {
		return p.Env(pr.VersionEnv)
	}
	return ""
}

// Renames maps the names of one vocabulary to another's: native tool names
// to canonical ones, payload keys to canonical data keys.
//
// It is a list, not a map, so that the provider tables are data the linker
// lays out: a map literal is built by code at the start of every process,
// and every hook call is a new process. The lists are short; a scan costs
// less than hashing.
type Renames []Rename

// Rename is one entry of Renames.
type Rename struct{ From, To string }

// Get returns what from is renamed to.
func (rs Renames) Get(from string) (string, bool) {
	for _, r := range rs {
		if r.From == from {
			return r.To, true
		}
	}
	return "", false
}

// From returns the first name renamed to to: Get read backwards, where
// the first entry wins when several names share one target.
func (rs Renames) From(to string) (string, bool) {
	for _, r := range rs {
		if r.To == to {
			return r.From, true
		}
	}
	return "", false
}

// Spec is one native event: its canonical name and what an answer to it
// can express.
type Spec struct {
	Native    string
	Canonical event.Name
	Can       Caps
}

// Caps is the set of things an answer to a native event can express.
type Caps uint16

const (
	// CanDeny: the answer can stop the action (tool call, prompt, stop...).
	CanDeny Caps = 1 << iota
	// CanAsk: the answer can hand the decision to the user.
	CanAsk
	// CanContext: text in the answer reaches the model.
	CanContext
	// CanRewrite: the answer can replace the tool's input.
	CanRewrite
	// CanStop: the answer can end the agent's loop (continue: false).
	CanStop
	// CanMessage: the answer can show a message to the user.
	CanMessage
	// CanSuppress: the answer can hide the tool's output from the transcript.
	CanSuppress
	// CanAllow: the answer can explicitly approve (skip the tool's own
	// permission prompt); without it an allow is the same as no opinion.
	CanAllow
	// CanDefer: the answer can hold the call for the program that drives
	// the session to decide (Claude Code's "defer"); without it a defer is
	// put to the user as an ask.
	CanDefer
)

// String names the capabilities, e.g. "deny,context", or "observe only".
func (caps Caps) String() string {
	names := []struct {
		c    Caps
		name string
	}{
		{CanDeny, "deny"}, {CanAsk, "ask"}, {CanDefer, "defer"}, {CanAllow, "allow"}, {CanContext, "context"},
		{CanRewrite, "rewrite"}, {CanStop, "stop"}, {CanMessage, "message"}, {CanSuppress, "suppress"},
	}
	var out []string
	for _, n := range names {
		if caps.Has(n.c) {
			out = append(out, n.name)
		}
	}
	if len(out) == 0 {
		return "observe only"
	}
	return strings.Join(out, ",")
}

// Has reports whether all of c are in caps.
func (caps Caps) Has(c Caps) bool { return caps&c == c }

// Fields are gjson paths of the common fields; empty means absent.
type Fields struct {
	SessionID  string
	Cwd        string
	Transcript string
	Model      string
	ToolName   string
	ToolInput  string
	ToolCallID string
	ToolOutput string
	ToolError  string
	Prompt     string
}

// Answer is what hookshim writes back to the tool.
type Answer struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// Spec returns the native event named n, or nil.
func (pr *Provider) Spec(n string) *Spec {
	for i := range pr.Events {
		if pr.Events[i].Native == n {
			return &pr.Events[i]
		}
	}
	return nil
}

// Install describes the tool's native hook config for `hookshim install`:
// where the tool reads hook registrations and what one entry looks like.
// It is data; internal/install does the editing. See install_common.go.
type Install struct {
	// Targets are the files (or folders) hookshim writes, at most one per
	// scope, in the order status lists them.
	Targets []Target

	// Timeout is the hook timeout written into every entry, in the
	// target's unit; zero when the tool has no per-hook timeout. The
	// provider's Timeout must be the same, so that the runtime answers
	// before the tool gives up (install's tests check it).
	Timeout time.Duration

	// EventTimeouts overrides Timeout for single native events (the tool
	// clamps them, say). Such entries also pass --timeout to run.
	EventTimeouts PerEvent[time.Duration]

	// HandlerTimeout is the timeout the tool gives one of its own hooks
	// that sets none, and HandlerTimeouts where an event's differs: what
	// `hookshim import` writes for such a hook, so that it runs as long
	// as it did. Zero: not known (hookshim's default applies).
	HandlerTimeout  time.Duration
	HandlerTimeouts PerEvent[time.Duration]

	// Events, when set, are the only native events install may write (a
	// tool with two dialects whose files take different events).
	Events []string

	// Files names the file of a LayoutScriptPerEvent event where it is
	// not the native name: the Cline CLI runs its TaskError file for the
	// event its payload calls agent_error.
	Files PerEvent[string]

	// Skip lists native events with a canonical name that install leaves
	// out unless asked for by name (--events), with the reason.
	Skip PerEvent[string]

	// EventFlag adds --event NAME to every command: the tool's payload
	// does not carry the event name.
	EventFlag bool

	// SharedCommand maps a native event to the provider whose command
	// string its entry carries instead of this provider's, where the tool
	// also runs that provider's registrations and dedupes on the command
	// string (Cursor runs .claude/settings.json hooks). The payload still
	// names the real tool: --provider is only a hint.
	SharedCommand PerEvent[*Provider]

	// Binaries and Homes show that the tool is on this machine (for
	// install --all): executables looked up in PATH, and folders relative
	// to the home directory.
	Binaries []string
	Homes    []string

	// Covers are the names a matcher of the tool's own hooks may use
	// that select more canonical tools than Tools says, each with all of
	// them: `hookshim import` translates such a name to the list, so that
	// the hook keeps its reach under tools that split the kinds (Codex's
	// apply_patch, and its matcher aliases Edit and Write, both edit and
	// create files; Gemini CLI and Copilot CLI create with a tool of
	// their own).
	Covers []Cover

	// ProjectMarks are files or folders, relative to the project root,
	// whose presence says the project uses the tool although the folder
	// of its project target does not exist yet (Kiro's .kiro holds
	// steering and specs long before .kiro/hooks): install --all takes
	// such a tool too.
	ProjectMarks []string

	// Notes are printed after a successful install: what the user still
	// has to do in the tool (review, trust, restart), each for the scope
	// it concerns.
	Notes []Note

	// Untrusted, when set, tells whether the tool runs no hook at all in
	// the project, from the tool's own files (read, relative to home):
	// the reason to show, or "". doctor reports it.
	Untrusted func(read func(path string) ([]byte, error), home, project string) string

	// LoginShellPath: the tool runs hook commands with the login shell's
	// environment, not its own (Factory Droid's JSON-RPC mode), so an entry
	// that runs hookshim from PATH needs hookshim on the login shell's
	// PATH; doctor checks it.
	LoginShellPath bool

	// ProjectDir is how a project-scope hook command names the project
	// folder, as shell text the tool expands ("$CLAUDE_PROJECT_DIR"): a
	// --bin inside the project is written as ProjectDir/<path>, so the
	// committed file runs on every teammate's machine. Empty when the tool
	// offers no reliable way (no variable, hooks run in the session's
	// folder): such a --bin is refused for it.
	ProjectDir string

	// AlsoRunBy are other tools that run this tool's registrations too
	// (Copilot CLI reads VS Code's hook files): install --all registers
	// only one of them, or those tools would call hookshim twice per event.
	AlsoRunBy []*Provider

	// OneWay, when set, says that the AlsoRunBy tools run this tool's
	// registrations only in these scopes, and this tool never runs theirs
	// (Devin CLI imports Claude Code's project hooks; Claude Code reads
	// nothing of Devin's): install --all keeps this tool's registration
	// there and skips theirs, whichever is registered already.
	OneWay []Scope

	// Switches are settings that turn all of the tool's hooks off;
	// install and status warn when one is set.
	Switches []Switch

	// Imports are more files the tool reads hook registrations from, which
	// install leaves alone (settings.local.json, every *.json of a hooks
	// folder, hooks in Codex's config.toml): hookshim import reads them as
	// well as Targets. A File with * in it names every file of Dir it
	// matches; a .toml file is read as TOML.
	Imports []Target

	// AnchoredMatcher: the tool matches a regular expression matcher
	// against the whole tool name (^(?:…)$), not anywhere in it.
	AnchoredMatcher bool

	// GlobMatcher: a matcher is a case-insensitive shell glob, or after
	// re: a regular expression matched against the whole name.
	GlobMatcher bool

	// SharedDir: the project-scope folder is a convention several tools
	// share (.agents/ holds skills and other tools' plugins), so only the
	// hook file itself shows that the project uses this tool (install --all).
	SharedDir bool
}

// PerEvent gives some native events a value of their own. Like Renames it
// is a list, so that the tables cost nothing at start-up.
// Cover is a matcher name and the canonical tools it selects.
type Cover struct {
	Name  string
	Tools []string
}

type PerEvent[T any] []ForEvent[T]

// ForEvent is one entry of PerEvent.
type ForEvent[T any] struct {
	Event string
	Value T
}

// Get returns the event's value.
func (pe PerEvent[T]) Get(event string) (T, bool) {
	for _, e := range pe {
		if e.Event == event {
			return e.Value, true
		}
	}
	var zero T
	return zero, false
}
