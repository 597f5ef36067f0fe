package provider

import "time"

// Where Auggie reads hook registrations (docs.augmentcode.com/cli/hooks and
// /cli/settings, read 2026-11; the project registration below runs in make
// e2e with Auggie 0.36.0, against a loopback stand-in for Augment's
// backend; the user one is not run):
//   - settings.json files, highest precedence first: /etc/augment/,
//     <workspace>/.augment/settings.local.json, <workspace>/.augment/
//     settings.json (project, committed) and ~/.augment/settings.json
//     (user);
//   - Claude's groups, hooks.<Event>[] = {matcher?, hooks: [{type:
//     "command", command, timeout}]}, the timeout in MILLISECONDS (default
//     60000);
//   - a command with no shell character is split into argv and run
//     without a shell; one with $ (or |&;<>`) runs through bash -c, with
//     AUGMENT_PROJECT_DIR (the first workspace root) in its environment, so
//     "$AUGMENT_PROJECT_DIR"/bin/hookshim works (0.36.0 bundle, read here).
var auggieInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".augment", File: "settings.json", Format: &auggieFormat},
		{Scope: ScopeUser, Dir: ".augment", File: "settings.json", Format: &auggieFormat},
	},
	Timeout:    30 * time.Second,
	ProjectDir: `"$AUGMENT_PROJECT_DIR"`,
	Binaries:   []string{"auggie"},
	Homes:      []string{".augment"},
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".augment", File: "settings.local.json", Format: &auggieFormat},
	},
	Notes: []Note{
		{"", "Auggie reads hooks when a session starts: start a new one"},
	},
}

var auggieFormat = Format{
	Layout:      LayoutGroups,
	Entry:       claudeEntry,
	TimeoutUnit: time.Millisecond,
}
