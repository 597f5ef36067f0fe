package provider

import "time"

// Where Junie CLI reads hook registrations
// (junie.jetbrains.com/docs/junie-cli-hooks.html):
//   - only the user's ~/.junie/config.json (or a file passed with
//     --config-location): hooks in a project's .junie/config.json are
//     ignored unless that file is passed explicitly, so install writes the
//     user scope only;
//   - hooks.SessionStart[] = {matcher?, hooks: [{type: "command", command,
//     timeout}]}, matcher a regular expression on the source (none: every
//     source), timeout in seconds (default 10);
//   - commands run through sh -c (cmd /c on Windows).
var junieInstall = &Install{
	Targets: []Target{
		{Scope: ScopeUser, Dir: ".junie", File: "config.json", Format: &claudeFormat},
	},
	Timeout:  10 * time.Second,
	Binaries: []string{"junie"},
	Homes:    []string{".junie"},
}
