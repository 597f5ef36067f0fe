package provider

import "time"

// Where Gemini CLI reads hook registrations (verified against
// google-gemini/gemini-cli docs/hooks/reference.md and
// packages/core/src/hooks/hookRegistry.ts, and Gemini CLI 0.61.0 run here):
//   - ~/.gemini/settings.json (user) and .gemini/settings.json (project),
//     hooks.<Event>[] = {matcher?, hooks: [{name?, type: "command",
//     command, timeout}]};
//   - timeout is in MILLISECONDS: a Claude-style 30 is 30 ms;
//   - name lets hooksConfig.disabled switch the entry off and makes
//     identical name+command pairs run once across files;
//   - project hooks load only in a trusted folder;
//   - AfterModel fires for every streamed chunk of every answer: a process
//     per chunk slows streaming down, so it is registered only on request.
var geminiInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".gemini", File: "settings.json", Format: &geminiFormat},
		{Scope: ScopeUser, Dir: ".gemini", File: "settings.json", Format: &geminiFormat},
	},
	Timeout:        30 * time.Second,
	HandlerTimeout: 60 * time.Second, // 60000 ms
	Skip: PerEvent[string]{
		{"AfterModel", "fires once per streamed chunk"},
	},
	Binaries: []string{"gemini"},
	Homes:    []string{".gemini"},
	Switches: []Switch{
		{At: Target{Scope: ScopeProject, Dir: ".gemini", File: "settings.json"}, Key: "hooksConfig.enabled", Off: false},
		{At: Target{Scope: ScopeUser, Dir: ".gemini", File: "settings.json"}, Key: "hooksConfig.enabled", Off: false},
	},
	// Gemini CLI replaces $GEMINI_PROJECT_DIR in the command text with the
	// project folder, already shell-quoted (hookRunner.ts expandCommand),
	// before bash -c sees it: it is written bare, never in quotes.
	ProjectDir: `$GEMINI_PROJECT_DIR`,
	Notes: []Note{
		{ScopeProject, "Gemini CLI loads project hooks only in a trusted folder, and warns once when they change"},
	},
}

var geminiFormat = Format{
	Layout:        LayoutGroups,
	Entry:         `{"name": "hookshim", "type": "command", "command": {{command}}, "timeout": {{timeout}}}`,
	TimeoutUnit:   time.Millisecond,
	HooksDisabled: "hooksConfig.disabled",
}
