package provider

import "time"

// Where Factory Droid reads hook registrations (verified against
// docs.factory.ai/reference/hooks-reference and the droid 0.225.2 binary;
// the hooks.json shape follows dyoshikawa/rulesync#2680, which quotes the
// docs of 2026-08-13):
//   - .factory/hooks.json (project) and ~/.factory/hooks.json (user). A
//     standalone hooks.json is keyed directly by event name, with no hooks
//     wrapper (that wrapper belongs to settings.json, read only when
//     hooks.json is absent; a wrapped hooks.json silently never fires);
//   - Claude's groups under each event, timeout in seconds;
//   - hooksDisabled in settings.json turns every hook off;
//   - the JSON-RPC mode (--input-format stream-jsonrpc, what IDEs and the
//     daemon use) runs hooks with the login shell's HOME and PATH, not the
//     process's: a bare hookshim that only the launching shell's PATH had
//     was not found there (exit 127, and the hook failed open; 0.225.2,
//     measured). A user-scope entry names hookshim by its absolute path
//     and works there; a project entry, shared with teammates, runs it
//     from PATH, and doctor says when the login shell's PATH lacks it.
var droidInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".factory", File: "hooks.json", Format: &droidFormat},
		{Scope: ScopeUser, Dir: ".factory", File: "hooks.json", Format: &droidFormat},
	},
	Timeout: 30 * time.Second,
	Switches: []Switch{
		{At: Target{Scope: ScopeProject, Dir: ".factory", File: "settings.json"}, Key: "hooksDisabled", Off: true},
		{At: Target{Scope: ScopeUser, Dir: ".factory", File: "settings.json"}, Key: "hooksDisabled", Off: true},
	},
	// Claude's contract: a shell command with FACTORY_PROJECT_DIR set.
	ProjectDir: `"$FACTORY_PROJECT_DIR"`,
	Binaries:   []string{"droid"},
	Homes:      []string{".factory"},
	// JSON-RPC mode: the login shell's environment.
	LoginShellPath: true,
	Notes: []Note{
		{ScopeProject, "Droid's IDE (JSON-RPC) mode runs hooks with your login shell's PATH: hookshim must be on it (hookshim doctor checks), or register with --scope user, which names hookshim by its absolute path"},
	},
}

var droidFormat = Format{
	Layout:   LayoutGroups,
	TopLevel: true,
	// A hooks.json in Claude's {"hooks": {...}} shape (copied from a
	// Claude setup, or registered by hand with "hookshim run" the Claude
	// way) is skipped by Droid 0.225.2 with "Ignoring unknown hook event
	// keys": hookshim's entries there are stale.
	Ignored: "hooks",
	Entry:   claudeEntry,
}
