package provider

import "time"

// Where Devin CLI reads hook registrations (docs.devin.ai/cli/
// extensibility/hooks/overview and …/configuration, read 2026-11):
//   - .devin/hooks.v1.json (project): the event map itself, no hooks
//     wrapper, Claude's groups {matcher?, hooks: [{type: "command",
//     command, timeout}]}, timeout in seconds;
//   - a "hooks" key in .devin/config.json, .devin/config.local.json or the
//     user's ~/.config/devin/config.json (%APPDATA%\devin on Windows);
//   - .claude/settings.json too (Claude Code import, read_config_from
//     .claude, on by default): with both registered, Devin calls hookshim
//     twice per event, and hookshim answers the second call from the first
//     (internal/dedupe). install --all therefore registers only Claude
//     Code's project file where both tools are found (claude_install.go
//     AlsoRunBy), and doctor reports the double registration;
//   - an event key Devin does not know makes it reject the whole file (a
//     third-party report on 3000.10.31), so only the seven documented
//     events are written, not PostCompaction.
var devinInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".devin", File: "hooks.v1.json", Format: &devinFileFormat},
		{Scope: ScopeUser, Dir: ".config/devin", AppData: "devin", File: "config.json", Format: &claudeFormat},
	},
	Timeout: 30 * time.Second,
	Events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
		"PostToolUse", "Stop", "SessionEnd"},
	// Commands run with DEVIN_PROJECT_DIR set to the project root: the
	// payload has no cwd.
	ProjectDir: `"$DEVIN_PROJECT_DIR"`,
	Binaries:   []string{"devin"},
	Homes:      []string{".config/devin"},
	// The project's config files may hold hooks too, under "hooks".
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".devin", File: "config.json", Format: &claudeFormat},
		{Scope: ScopeProject, Dir: ".devin", File: "config.local.json", Format: &claudeFormat},
	},
}

var devinFileFormat = Format{
	Layout:   LayoutGroups,
	TopLevel: true,
	Entry:    claudeEntry,
}
