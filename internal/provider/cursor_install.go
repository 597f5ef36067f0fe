package provider

import "time"

// Where Cursor reads hook registrations (verified against
// https://cursor.com/docs/hooks and
// https://cursor.com/docs/reference/third-party-hooks):
//   - ~/.cursor/hooks.json (user) and .cursor/hooks.json (project):
//     {"version": 1, "hooks": {"<event>": [{command, timeout}]}}, timeout
//     in seconds;
//   - an event key Cursor does not know makes it reject the whole file, so
//     only the events of the provider table are written;
//   - Cursor also runs the hooks of .claude/settings.json and
//     ~/.claude/settings.json, mapping PreToolUse, PostToolUse and
//     PreCompact to its own names, and runs a command string once however
//     many files carry it. Those three events therefore carry the command
//     string `hookshim install --provider claude-code` writes: with both
//     tools installed, Cursor runs hookshim once per event. Cursor's
//     payload always carries cursor_version, which overrules the
//     --provider hint. Any other duplicate is answered once by hookshim
//     itself (internal/dedupe).
var cursorInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".cursor", File: "hooks.json", Format: &cursorFormat},
		{Scope: ScopeUser, Dir: ".cursor", File: "hooks.json", Format: &cursorFormat},
	},
	Timeout: 30 * time.Second,
	SharedCommand: PerEvent[*Provider]{
		{"preToolUse", Claude},
		{"postToolUse", Claude},
		{"preCompact", Claude},
	},
	Binaries: []string{"cursor", "cursor-agent"},
	Homes:    []string{".cursor"},
	// Cursor always sets CURSOR_PROJECT_DIR (and CLAUDE_PROJECT_DIR, so the
	// entries shared with Claude Code work as they are).
	ProjectDir: `"$CURSOR_PROJECT_DIR"`,
	// Grok Build runs the project's .cursor/hooks.json too, with its own
	// payload and GROK_HOOK_EVENT; Cursor reads nothing of Grok's.
	AlsoRunBy: []*Provider{Grok},
	OneWay:    []Scope{ScopeProject},
	Notes: []Note{
		{ScopeProject, "Cursor runs project hooks only in a trusted workspace; it reloads hooks.json by itself"},
		{ScopeUser, "Cursor reloads hooks.json by itself"},
	},
}

var cursorFormat = Format{
	Layout:   LayoutLists,
	Skeleton: `{"version": 1}`,
	Entry:    `{"command": {{command}}, "timeout": {{timeout}}}`,
}
