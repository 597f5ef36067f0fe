package provider

import "time"

// Where Qwen Code reads hook registrations (verified against
// QwenLM/qwen-code docs/users/features/hooks.md at 00d06c80 and Qwen Code
// 0.24.4 run here):
//   - .qwen/settings.json (project) and ~/.qwen/settings.json (user),
//     Claude's layout: hooks.<Event>[] = {matcher?, hooks: [{type:
//     "command", command, name?, timeout}]};
//   - a command hook's timeout was in MILLISECONDS up to 0.24 (default
//     60000; http hooks count in seconds); newer releases read seconds
//     and take a value of 1000 or more as legacy milliseconds. hookshim
//     keeps writing 60000, which both read as the 60 s default (the
//     provider's Timeout), so an entry stays byte-stable across the
//     change; written as 60 it would be 60 ms to an older Qwen Code. A
//     user's own value under 1000 is seconds on a newer Qwen Code;
//   - hooks are on by default; disableAllHooks: true turns them all off;
//   - enabled, disabled and notifications inside hooks are settings, not
//     events (hookRegistry.ts skips HOOKS_CONFIG_FIELDS).
var qwenInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".qwen", File: "settings.json", Format: &qwenFormat},
		{Scope: ScopeUser, Dir: ".qwen", File: "settings.json", Format: &qwenFormat},
	},
	Timeout: 60 * time.Second,
	Switches: []Switch{
		{At: Target{Scope: ScopeProject, Dir: ".qwen", File: "settings.json"}, Key: "disableAllHooks", Off: true},
		{At: Target{Scope: ScopeUser, Dir: ".qwen", File: "settings.json"}, Key: "disableAllHooks", Off: true},
	},
	// Hooks run through a shell with QWEN_PROJECT_DIR set; unlike Gemini
	// CLI, Qwen Code does not replace it in the command text, so the shell
	// expands it, quoted.
	ProjectDir: `"$QWEN_PROJECT_DIR"`,
	Binaries:   []string{"qwen"},
	Homes:      []string{".qwen"},
}

var qwenFormat = Format{
	Layout:      LayoutGroups,
	Entry:       `{"type": "command", "command": {{command}}, "name": "hookshim", "timeout": {{timeout}}}`,
	TimeoutUnit: time.Millisecond,
	Settings:    []string{"enabled", "disabled", "notifications"},
}
