package provider

import "time"

// Where VS Code (Copilot Chat agent hooks) reads hook registrations
// (verified against the VS Code docs docs/agent-customization/hooks.md and
// docs/agents/reference/hooks-reference.md, DateApproved 2026-07-29):
//   - the built-in locations .github/hooks/*.json (workspace) and
//     ~/.copilot/hooks/*.json (user), {"hooks": {"<Event>": [{type:
//     "command", command, timeout}]}} with PascalCase events and timeout in
//     seconds (default 30); more folders can be added with the
//     chat.hookFilesLocations setting. The Claude files VS Code can also
//     read need chat.useClaudeHooks, off by default in newer releases, so
//     hookshim does not rely on them;
//   - hookshim writes a file of its own, hookshim-vscode.json. Copilot CLI
//     reads the same folders and runs these entries too, with its VS Code
//     compatible payload, which hookshim tells apart; installing for
//     copilot-cli as well makes Copilot CLI call hookshim twice per event
//     (same decision, side effects twice): install one of the two;
//   - the payload names its event, so no --event.
var vscodeInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".github/hooks", File: "hookshim-vscode.json", Format: &vscodeFormat},
		{Scope: ScopeUser, Dir: ".copilot/hooks", DirEnv: "COPILOT_HOME", DirSub: "hooks", File: "hookshim-vscode.json", Format: &vscodeFormat},
	},
	Timeout:  30 * time.Second,
	Binaries: []string{"code", "code-insiders"},
	Homes:    []string{".vscode"},
	// Copilot CLI runs these entries with COPILOT_PROJECT_DIR set; VS Code
	// runs them in the workspace folder.
	ProjectDir: `"${COPILOT_PROJECT_DIR:-.}"`,
	AlsoRunBy:  []*Provider{Copilot},
	Notes: []Note{
		{ScopeProject, "VS Code runs agent hooks only with hooks enabled (chat.useHooks) and in a trusted workspace"},
		{ScopeUser, "VS Code runs agent hooks only with hooks enabled (chat.useHooks)"},
	},
}

var vscodeFormat = Format{
	Layout: LayoutLists,
	Entry:  `{"type": "command", "command": {{command}}, "timeout": {{timeout}}}`,
}
