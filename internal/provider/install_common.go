package provider

import (
	"io/fs"
	"time"
)

// The vocabulary of install descriptions (Provider.Install). Each tool's
// description lives in <name>_install.go next to its provider file; the
// engine that reads and edits the files is internal/install.

// Scope is where a registration applies.
type Scope string

const (
	// ScopeProject registrations live in the project and apply to it.
	ScopeProject Scope = "project"
	// ScopeUser registrations live in the home directory and apply to
	// every project.
	ScopeUser Scope = "user"
)

// Target is one place a tool reads hook registrations from.
type Target struct {
	Scope Scope

	// Dir is the folder, relative to the project root (project scope) or
	// to the home directory (user scope), e.g. ".claude".
	Dir string

	// DirEnv names a variable that, when set and absolute, is the folder
	// instead of Dir (CODEX_HOME, KIMI_CODE_HOME, XDG_CONFIG_HOME...).
	// DirSub is then appended to it (XDG_CONFIG_HOME + "opencode").
	DirEnv string
	DirSub string

	// AppData, for a user target, is the folder under %APPDATA% that the
	// tool reads on Windows instead of Dir ("devin").
	AppData string

	// File is the file in Dir; a folder for LayoutScriptPerEvent.
	File string

	// Format says how entries are laid out in the file.
	Format *Format

	// Mode is the permission of a file install creates; 0 means 0644
	// (0755 for scripts).
	Mode fs.FileMode

	// AlsoRead is another folder of LayoutScriptPerEvent, relative like
	// Dir, where some versions of the tool also look for the event files
	// and run every copy they find (the Cline CLI 3 reads .cline/hooks as
	// well as .clinerules/hooks). install never writes there: it moves
	// hookshim's own scripts found there into File, uninstall removes
	// them, and status and doctor report a copy in both as a duplicate.
	AlsoRead string

	// Scoped, for a file of Install.Imports, says when its hooks run in
	// the tool, where that is narrower than every session (Kiro's agent
	// hooks, only while that agent is active): hookshim import reports it
	// once per file, since a config's hooks run in every session.
	Scoped string
}

// Layout is the shape of a hook config file.
type Layout int

const (
	// LayoutGroups: a JSON object whose hooks.<Event> is an array of
	// {matcher?, hooks: [entry]} groups (Claude Code and the tools that
	// copied its format). hookshim writes one group per event.
	LayoutGroups Layout = iota
	// LayoutLists: a JSON object whose hooks.<Event> is an array of
	// entries (Cursor, Copilot, Windsurf, Kiro agents).
	LayoutLists
	// LayoutArray: a JSON object whose hooks is one array of entries,
	// each naming its event in Format.EventKey (Kiro hook files).
	LayoutArray
	// LayoutTOMLTables: TOML [[hooks]] tables, each naming its event in
	// Format.EventKey (Kimi Code).
	LayoutTOMLTables
	// LayoutScriptPerEvent: one executable per event, named after it, in
	// the folder Target.File (Cline).
	LayoutScriptPerEvent
	// LayoutGenerated: one file whose whole content hookshim generates
	// (OpenCode's plugin).
	LayoutGenerated
)

// Format describes one entry and the file around it.
type Format struct {
	Layout Layout

	// Skeleton is the JSON object a file starts as when install creates
	// it, before the hooks key is added; "{}" when empty.
	Skeleton string

	// Entry is the template of one entry: JSON (TOML key lines for
	// LayoutTOMLTables) in which {{command}}, {{timeout}}, {{event}} and
	// {{name}} are replaced by the quoted command, the timeout number in
	// TimeoutUnit, the quoted native event name and a quoted
	// "hookshim-<event>". An entry without {{timeout}} has none.
	Entry string

	// TimeoutUnit is the unit of {{timeout}}: time.Second when zero.
	TimeoutUnit time.Duration

	// CommandKeys are the gjson paths, inside an entry, of the strings
	// that hold the command; {"command"} when empty. An entry is
	// hookshim's when one of them runs hookshim for this provider.
	CommandKeys []string

	// TopLevel: the event map is the file's top level, not its hooks key
	// (LayoutGroups, LayoutLists; Factory Droid's hooks.json).
	TopLevel bool

	// Settings are keys of the event map that are settings, not events
	// (Letta Code's hooks.disabled): left alone, whatever their value.
	Settings []string

	// HooksDisabled is the gjson path, in the file, of a list of names of
	// hooks the tool does not run (Gemini CLI's hooksConfig.disabled), a
	// hook's name being its "name", else its command, as the tool names
	// it. Import leaves such hooks out, saying why (a setting that turns
	// every hook off is a Switch of the Install).
	HooksDisabled string

	// Ignored names a key of a TopLevel file whose object the tool does
	// not read, although it once was (or is elsewhere) an event map:
	// Factory Droid's hooks.json in Claude's {"hooks": {...}} shape.
	// hookshim's entries under it never run, so install and uninstall
	// remove them and status reports them; the user's own entries there
	// stay, with a warning.
	Ignored string

	// EventKey is the entry key naming the event (LayoutArray,
	// LayoutTOMLTables).
	EventKey string

	// Script renders a LayoutScriptPerEvent file from its command;
	// Render renders a LayoutGenerated file from the base command (no
	// --event). Both must contain Marker.
	Script func(command string) []byte
	Render func(command string) []byte

	// Marker is a line generated files carry, by which hookshim knows
	// them as its own.
	Marker string

	// Refuse, when set, says why an existing file (already parsed) is in
	// a form the tool reads in a way hookshim's entries would not fit
	// (OpenHands: events wrapped in "hooks" hide top-level ones); install
	// then leaves the file as it is. nil error: the file may be edited.
	Refuse func(text string) error
}

// Switch is a setting that turns every hook of a tool off: Key (a dotted
// path) set to Off in the file At names (JSON, or TOML by its .toml
// extension). At.Format is unused.
type Switch struct {
	At  Target
	Key string
	Off any
}

// Note is a next step printed after a successful install, for Scope ("":
// both scopes).
type Note struct {
	Scope Scope
	Text  string
}
