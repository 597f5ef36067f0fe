package provider

import "time"

// Where Kiro reads hook registrations (verified against
// kiro.dev/docs/cli/v3/hooks and kiro.dev/docs/ide/whats-new-v1/hooks):
//   - the v1 hook files: .kiro/hooks/<name>.json in the workspace (Kiro IDE
//     1.x and kiro-cli v3) and ~/.kiro/hooks/<name>.json (kiro-cli v3 from
//     2.13; the IDE's user hooks), {"version": "v1", "hooks": [{name,
//     trigger, matcher?, action: {type: "command", command}, timeout}]},
//     timeout in seconds. hookshim writes a file of its own,
//     hookshim.json, and leaves the user's hook files alone;
//   - CLI v2 agent hooks live inside an agent's JSON and run only while that
//     agent is active, so install does not write them: add hookshim to the
//     agent's hooks by hand (agentSpawn, userPromptSubmit, preToolUse,
//     postToolUse, stop, each {"command": "hookshim run --provider kiro"}),
//     or move to v3 files with `kiro-cli agent migrate`;
//   - Manual hooks are buttons the user presses, so they are registered only
//     when asked for.
//
// Kiro CLI 3.0 made the V3 engine the default (kiro.dev/docs/cli, "What's
// new in V3"; before it, kiro-cli 2.13+ ran it with --v3): the v1 files
// above are its format, in both scopes, and it applies them to every agent.
// Amazon Q Developer CLI, kiro-cli's predecessor, and kiro-cli 2.x's
// default engine read only agent hooks, so the install note says what to
// add there by hand.
var kiroInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".kiro/hooks", File: "hookshim.json", Format: &kiroFormat},
		{Scope: ScopeUser, Dir: ".kiro/hooks", File: "hookshim.json", Format: &kiroFormat},
	},
	Timeout: 30 * time.Second,
	Events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop",
		"PreTaskExec", "PostTaskExec", "PostFileCreate", "PostFileSave", "PostFileDelete", "Manual"},
	Skip: PerEvent[string]{{"Manual", "a button the user presses"}},
	// No ProjectDir: Kiro documents no project-folder variable for hook
	// commands.
	Binaries: []string{"kiro", "kiro-cli"},
	Notes: []Note{
		{"", "Kiro IDE 1.x and kiro-cli 3 (its V3 engine; --v3 on 2.13 and later) run these files; kiro-cli 2.x's default engine runs only the hooks in an agent's JSON: add {\"command\": \"hookshim run --provider kiro\"} to its hooks.agentSpawn, userPromptSubmit, preToolUse, postToolUse and stop by hand"},
	},
	// The IDE's own data folders (Linux, macOS) tell it is installed
	// where no kiro program is in PATH.
	Homes:        []string{".kiro", ".config/Kiro", "Library/Application Support/Kiro"},
	ProjectMarks: []string{".kiro"},
	// Kiro loads every hook file of .kiro/hooks; kiro-cli 2.x's default
	// engine runs the hooks of the agent in use, from its JSON file.
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".kiro/hooks", File: "*.json", Format: &kiroFormat},
		{Scope: ScopeUser, Dir: ".kiro/hooks", File: "*.json", Format: &kiroFormat},
		{Scope: ScopeProject, Dir: ".kiro/agents", File: "*.json", Format: &kiroAgentFormat, Scoped: "only while that agent is active"},
		{Scope: ScopeUser, Dir: ".kiro/agents", File: "*.json", Format: &kiroAgentFormat, Scoped: "only while that agent is active"},
	},
}

// kiroAgentFormat is the hooks key of a kiro-cli 2.x agent file:
// hooks.<camelCase event>[] = {command, matcher?, timeout_ms?}.
var kiroAgentFormat = Format{Layout: LayoutLists}

var kiroFormat = Format{
	Layout:      LayoutArray,
	Skeleton:    `{"version": "v1"}`,
	EventKey:    "trigger",
	CommandKeys: []string{"action.command"},
	Entry:       `{"name": {{name}}, "trigger": {{event}}, "action": {"type": "command", "command": {{command}}}, "timeout": {{timeout}}}`,
}
