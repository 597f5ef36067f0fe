package provider

import "time"

// Where Tabnine CLI reads hook registrations (docs.tabnine.com
// main/getting-started/tabnine-cli/features/hooks/configuration):
//   - .tabnine/agent/settings.json (project) and
//     ~/.tabnine/agent/settings.json (user), merged with the system
//     settings and extensions' hooks;
//   - Gemini CLI's layout: hooks.<Event>[] = {matcher?, sequential?,
//     hooks: [{type: "command", command, name?, description?, timeout}]};
//   - timeout is in MILLISECONDS;
//   - hooksConfig.enabled false turns every hook off, hooksConfig.disabled
//     lists hooks by name;
//   - commands may name the project as $TABNINE_PROJECT_DIR, but whether
//     Tabnine substitutes it already quoted (as Gemini CLI does) or leaves
//     it to the shell is not said, so a --bin inside the project is
//     refused rather than written in a form that may break.
var tabnineInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".tabnine/agent", File: "settings.json", Format: &geminiFormat},
		{Scope: ScopeUser, Dir: ".tabnine/agent", File: "settings.json", Format: &geminiFormat},
	},
	Timeout: 30 * time.Second,
	Skip: PerEvent[string]{
		{"AfterModel", "fires once per streamed chunk"},
	},
	Binaries: []string{"tabnine"},
	Homes:    []string{".tabnine/agent"},
	Switches: []Switch{
		{At: Target{Scope: ScopeProject, Dir: ".tabnine/agent", File: "settings.json"}, Key: "hooksConfig.enabled", Off: false},
		{At: Target{Scope: ScopeUser, Dir: ".tabnine/agent", File: "settings.json"}, Key: "hooksConfig.enabled", Off: false},
	},
}
