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
//   - hooksDisabled in settings.json turns every hook off.
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
