package provider

import "time"

// Where Qoder CLI reads hook registrations (docs.qoder.com/cli/hooks and
// the 1.1.52 bundle's hook skill):
//   - .qoder/settings.json (project), .qoder/settings.local.json (project,
//     not committed) and ~/.qoder/settings.json (user), all merged, plus
//     plugin hooks;
//   - Claude's layout: hooks.<Event>[] = {matcher?, hooks: [{type:
//     "command", command, timeout}]}, timeout in seconds;
//   - commands run through a shell with QODER_PROJECT_DIR set (also
//     substituted as ${QODER_PROJECT_DIR}).
var qoderInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".qoder", File: "settings.json", Format: &claudeFormat},
		{Scope: ScopeUser, Dir: ".qoder", File: "settings.json", Format: &claudeFormat},
	},
	Timeout:    30 * time.Second,
	ProjectDir: `"$QODER_PROJECT_DIR"`,
	Binaries:   []string{"qodercli"},
	Homes:      []string{".qoder"},
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".qoder", File: "settings.local.json", Format: &claudeFormat},
	},
}
