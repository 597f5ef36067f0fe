package provider

import "time"

// Where Amplifier's hook-shell module reads hook registrations (verified
// against microsoft/amplifier-module-hook-shell bridge.py at f9ebb16a and
// its loader, which merges .amplifier/hooks/hooks.json with every
// .amplifier/hooks/<folder>/hooks.json):
//   - only the directory Amplifier starts in (Path.cwd()): there is no user
//     scope, whatever the behavior's YAML says;
//   - hookshim gets a folder of its own, .amplifier/hooks/hookshim/, so the
//     user's hooks.json is never touched;
//   - Claude's layout; a group without matcher matches everything; timeout
//     in seconds (default 30);
//   - the payload names no event, so every command carries --event; a
//     group runs its hooks one after another and the first deny or context
//     ends it, so hookshim has a group to itself.
var amplifierInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".amplifier/hooks/hookshim", File: "hooks.json", Format: &claudeFormat},
	},
	Timeout:   30 * time.Second,
	EventFlag: true,
	Binaries:  []string{"amplifier"},
	Homes:     []string{".amplifier"},
	// The user's own hooks: .amplifier/hooks/hooks.json and a hooks.json
	// in every folder of .amplifier/hooks, hookshim's among them.
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".amplifier/hooks", File: "hooks.json", Format: &claudeFormat},
		{Scope: ScopeProject, Dir: ".amplifier/hooks/*", File: "hooks.json", Format: &claudeFormat},
	},
	// The bridge runs each command through os.path.expandvars and a shell,
	// in the project folder, with AMPLIFIER_PROJECT_DIR set.
	ProjectDir: `"$AMPLIFIER_PROJECT_DIR"`,
	Notes: []Note{
		{"", "Amplifier runs shell hooks only with the hook-shell module in its bundle, and reads them from the folder it starts in"},
	},
}
