package provider

import "time"

// Where Grok Build reads hook registrations (docs.x.ai
// build/features/hooks):
//   - every *.json directly in ~/.grok/hooks/ (user) and
//     <project>/.grok/hooks/ (project), merged: hookshim writes a file of
//     its own, hookshim.json, and leaves the others alone (import reads
//     them all);
//   - Claude's layout: hooks.<Event>[] = {matcher?, hooks: [{type:
//     "command", command, timeout}]}, matcher a regular expression on the
//     tool name, timeout in seconds (default 5);
//   - project hooks run only once the folder is trusted (/hooks-trust or
//     --trust, kept in ~/.grok/trusted_folders.toml);
//   - Grok also runs .claude/settings.json and .cursor/hooks.json: a
//     project registered for Claude Code or Cursor is answered as Grok
//     when Grok calls (GROK_HOOK_EVENT, which outweighs their --provider).
//     A project registered for Grok too would be called twice per event,
//     so Claude's and Cursor's installs list Grok in AlsoRunBy (one way,
//     project scope): install --all keeps their entry and skips Grok's.
var grokInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".grok/hooks", File: "hookshim.json", Format: &claudeFormat},
		{Scope: ScopeUser, Dir: ".grok/hooks", File: "hookshim.json", Format: &claudeFormat},
	},
	Timeout:  30 * time.Second,
	Binaries: []string{"grok"},
	Homes:    []string{".grok"},
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".grok/hooks", File: "*.json", Format: &claudeFormat},
		{Scope: ScopeUser, Dir: ".grok/hooks", File: "*.json", Format: &claudeFormat},
	},
	Notes: []Note{
		{ScopeProject, "Grok runs project hooks only in a trusted folder: run /hooks-trust once (or start it with --trust)"},
	},
}
