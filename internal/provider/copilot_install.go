package provider

import (
	"time"
)

// Where GitHub Copilot CLI reads hook registrations (verified against the
// hooks reference, github/docs content/copilot/reference/hooks-reference.md
// at 05da5bc3, and Copilot CLI 1.0.102 run here with this very layout):
//   - every *.json of .github/hooks/ (project; the cloud agent reads only
//     these, from the default branch) and of ~/.copilot/hooks/ (user;
//     COPILOT_HOME moves ~/.copilot), {"version": 1, "hooks": {"<event>":
//     [{type: "command", bash | powershell, timeoutSec}]}}, timeout in
//     seconds (default 30). hookshim writes a file of its own,
//     hookshim.json, and leaves the other files alone;
//   - the camelCase event keys are Copilot's own; their payloads carry no
//     event name, so every command has --event. (PascalCase keys switch the
//     payload to the VS Code compatible format; `hookshim install
//     --provider vscode-copilot` writes those, and Copilot CLI runs them
//     too: install one of the two);
//   - a preToolUse command that is missing or exits non-zero DENIES the
//     call: hookshim exits 0 on every answer, and the path is absolute;
//   - the key is bash on Linux and macOS and powershell on Windows: the
//     other shell's key is ignored there.
var copilotInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".github/hooks", File: "hookshim.json", Format: &copilotFormat},
		{Scope: ScopeUser, Dir: ".copilot/hooks", DirEnv: "COPILOT_HOME", DirSub: "hooks", File: "hookshim.json", Format: &copilotFormat},
	},
	Timeout:        30 * time.Second,
	HandlerTimeout: 30 * time.Second,
	EventFlag:      true,
	Events: []string{"sessionStart", "sessionEnd", "userPromptSubmitted", "preToolUse", "postToolUse",
		"postToolUseFailure", "permissionRequest", "agentStop", "subagentStart", "subagentStop",
		"errorOccurred", "preCompact", "notification"},
	Binaries: []string{"copilot"},
	Homes:    []string{".copilot"},
	// Matchers are anchored regular expressions (^(?:…)$).
	AnchoredMatcher: true,
	// Copilot CLI loads every *.json of its hooks folders, and hooks
	// written inline under "hooks" in its user settings.json (same entries;
	// COPILOT_HOME moves it too). install keeps to its own file there, so
	// the user's settings are never rewritten; import, status and doctor
	// read both.
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".github/hooks", File: "*.json", Format: &copilotFormat},
		{Scope: ScopeUser, Dir: ".copilot/hooks", DirEnv: "COPILOT_HOME", DirSub: "hooks", File: "*.json", Format: &copilotFormat},
		{Scope: ScopeUser, Dir: ".copilot", DirEnv: "COPILOT_HOME", File: "settings.json", Format: &copilotFormat},
	},
	// Copilot CLI sets COPILOT_PROJECT_DIR (measured, 1.0.102); the cloud
	// agent runs hooks in the checkout, so "." stands in where it is unset:
	// a missing command would deny every tool call.
	ProjectDir: `"${COPILOT_PROJECT_DIR:-.}"`,
	Notes: []Note{
		{ScopeProject, "Copilot CLI loads repository hooks only in a trusted folder; the cloud agent reads .github/hooks from the default branch"},
	},
}

var copilotFormat = Format{
	Layout:      LayoutLists,
	Skeleton:    `{"version": 1}`,
	Entry:       `{"type": "command", "` + copilotShell + `": {{command}}, "timeoutSec": {{timeout}}}`,
	CommandKeys: []string{"bash", "powershell", "command"},
}
