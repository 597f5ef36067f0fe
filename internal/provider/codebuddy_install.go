package provider

import "time"

// Where CodeBuddy Code reads hook registrations (its bundled docs
// cli/dist/web-ui/docs/en/cli/hooks.md and settings.md, and 2.117.0 run
// here with a project file):
//   - .codebuddy/settings.json (project), .codebuddy/settings.local.json
//     (project, not committed), ~/.codebuddy/settings.json (user) and an
//     enterprise policy, all merged; matching hooks run in parallel;
//   - Claude's layout: hooks.<Event>[] = {matcher?, hooks: [{type:
//     "command", command, timeout}]}, timeout in seconds;
//   - commands run through $SHELL (Git Bash on Windows) with
//     CODEBUDDY_PROJECT_DIR set;
//   - a hook that times out blocks the tool, so the timeout written is the
//     one hookshim's own deadline is clipped to (Provider.Timeout).
var codeBuddyInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".codebuddy", File: "settings.json", Format: &claudeFormat},
		{Scope: ScopeUser, Dir: ".codebuddy", File: "settings.json", Format: &claudeFormat},
	},
	Timeout:    30 * time.Second,
	ProjectDir: `"$CODEBUDDY_PROJECT_DIR"`,
	Binaries:   []string{"codebuddy", "cbc"},
	Homes:      []string{".codebuddy"},
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".codebuddy", File: "settings.local.json", Format: &claudeFormat},
	},
}
