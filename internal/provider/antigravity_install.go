package provider

import "time"

// Where Antigravity reads hook registrations (skillsaw's rule, measured on
// agy 1.1.25; the user file as measured on agy 1.0.5 and written by the
// plugins that install there):
//   - hooks.json in a customization root: the project's .agents/ (also
//     .agent/, _agents/, _agent/, not written) and ~/.gemini/config/;
//     plugins bring their own in .agents/plugins/<name>/;
//   - every top-level key names a hook, an object of event arrays (and an
//     optional enabled switch): a Claude-style {"hooks": {...}} file is one
//     hook named "hooks", which is what hookshim writes, so its entries sit
//     beside the user's named hooks without touching them;
//   - PreToolUse and PostToolUse take Claude's {matcher, hooks: [...]}
//     groups; PreInvocation, PostInvocation, Stop and SessionStart take a
//     flat list of handlers, where a group runs nothing. Install writes
//     only the two group events; the others are added by hand (the note
//     says how);
//   - strict JSON, timeout a whole number of seconds: one error drops the
//     whole file without a word, so the file is left alone when it does not
//     parse as it is;
//   - the payload names no event: every command carries --event;
//   - hooks run in the folder that holds hooks.json (.agents/ for the
//     project) with no project variable, so a --bin inside the project is
//     refused.
var antigravityInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".agents", File: "hooks.json", Format: &claudeFormat},
		{Scope: ScopeUser, Dir: ".gemini/config", File: "hooks.json", Format: &claudeFormat},
	},
	Timeout:   30 * time.Second,
	Events:    []string{"PreToolUse", "PostToolUse"},
	EventFlag: true,
	Binaries:  []string{"agy", "antigravity"},
	Homes:     []string{".gemini/config", ".gemini/antigravity-cli"},
	// .agents/ also holds skills and goose's plugins: only .agents/hooks.json
	// shows that a project uses Antigravity.
	SharedDir: true,
	Notes: []Note{
		{"", `Antigravity takes SessionStart, PreInvocation, PostInvocation and Stop as flat handler lists, which install does not write: to use them, add e.g. "Stop": [{"type": "command", "command": "hookshim run --provider antigravity --event Stop", "timeout": 30}] to the "hooks" object by hand`},
	},
}
