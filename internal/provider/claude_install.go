package provider

import "time"

// Where Claude Code reads hook registrations (verified against
// https://code.claude.com/docs/en/hooks, v2.1.239, and Claude Code 2.1.330
// run here):
//   - ~/.claude/settings.json (user; CLAUDE_CONFIG_DIR moves ~/.claude)
//     and .claude/settings.json (project), hooks.<Event>[] = {matcher?,
//     hooks: [{type: "command", command, timeout}]}, timeout in seconds;
//   - an omitted matcher matches everything, and events without a matcher
//     ignore it, so hookshim writes none;
//   - identical command hooks from several settings files run once, so the
//     same command string at both scopes costs nothing;
//   - Cursor, Copilot CLI, VS Code and Devin CLI also run these entries,
//     with their own payloads: hookshim tells them apart from the payload,
//     not from --provider. Devin CLI imports the project's .claude/ hooks
//     (read_config_from.claude, on by default) besides its own
//     .devin/hooks.v1.json, so install --all registers Claude Code's file
//     only, which serves both; whether it imports ~/.claude is not
//     documented, so the user scope keeps both (a second call is answered
//     from the first, internal/dedupe).
var claudeInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".claude", File: "settings.json", Format: &claudeFormat},
		{Scope: ScopeUser, Dir: ".claude", DirEnv: "CLAUDE_CONFIG_DIR", File: "settings.json", Format: &claudeFormat},
	},
	// Claude's own default is 600 s (30 s for UserPromptSubmit); a policy
	// that needs longer than this is a policy that hangs the agent.
	Timeout: 30 * time.Second,
	// (hooks reference, "Common fields")
	HandlerTimeout:  600 * time.Second,
	HandlerTimeouts: PerEvent[time.Duration]{{"UserPromptSubmit", 30 * time.Second}, {"MessageDisplay", 10 * time.Second}},
	Binaries:        []string{"claude"},
	Homes:           []string{".claude"},
	// settings.local.json is the project's uncommitted twin of
	// settings.json; Claude Code merges the hooks of both.
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".claude", File: "settings.local.json", Format: &claudeFormat},
	},
	Switches: []Switch{
		{At: Target{Scope: ScopeProject, Dir: ".claude", File: "settings.json"}, Key: "disableAllHooks", Off: true},
		{At: Target{Scope: ScopeProject, Dir: ".claude", File: "settings.local.json"}, Key: "disableAllHooks", Off: true},
		{At: Target{Scope: ScopeUser, Dir: ".claude", DirEnv: "CLAUDE_CONFIG_DIR", File: "settings.json"}, Key: "disableAllHooks", Off: true},
	},
	// Commands run through sh -c (Git Bash on Windows) with
	// CLAUDE_PROJECT_DIR set, quoted as the docs show so that a folder with
	// spaces works. Cursor and Copilot CLI set it too when they run these
	// entries.
	ProjectDir: `"$CLAUDE_PROJECT_DIR"`,
	// Devin CLI and Grok Build run the project's entries too, each with its
	// own payload (and Grok with GROK_HOOK_EVENT, which outweighs the
	// --provider claude-code of these entries); neither tool's own file is
	// read by Claude Code.
	AlsoRunBy: []*Provider{DevinCLI, Grok},
	OneWay:    []Scope{ScopeProject},
	Notes: []Note{
		{ScopeProject, "Claude Code holds back project hooks until the folder is trusted (the trust dialog of an interactive session)"},
	},
}

// claudeFormat is the settings.json layout shared by the Claude dialect.
var claudeFormat = Format{
	Layout: LayoutGroups,
	Entry:  claudeEntry,
}

const claudeEntry = `{"type": "command", "command": {{command}}, "timeout": {{timeout}}}`
