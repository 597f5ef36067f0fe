package provider

import "time"

// Where Letta Code reads hook registrations (letta-ai/letta-code at
// 1f4d3e3, src/hooks/loader.ts and types.ts; not run: it needs a Letta
// server):
//   - .letta/settings.local.json (runs first), .letta/settings.json
//     (project, committed) and ~/.letta/settings.json (user), merged;
//   - Claude's groups, hooks.<Event>[] = {matcher?, hooks: [{type:
//     "command", command, timeout}]}; an absent matcher matches every tool;
//     the timeout is in MILLISECONDS (default 60000);
//   - hooks.disabled: true in any of them turns every hook off;
//   - PermissionRequest is left out: Letta Code approves the request on any
//     exit 0, so registering hookshim there would approve everything its
//     policies have no opinion on;
//   - the command runs in the session's working directory with no variable
//     naming the project root, so a --bin inside the project is refused.
var lettaInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".letta", File: "settings.json", Format: &lettaFormat},
		{Scope: ScopeUser, Dir: ".letta", File: "settings.json", Format: &lettaFormat},
	},
	Timeout: 30 * time.Second,
	Skip: PerEvent[string]{
		{"PermissionRequest", "Letta Code approves a permission request on any exit 0, so a registration there approves whatever no policy denies"},
	},
	Switches: []Switch{
		{At: Target{Scope: ScopeProject, Dir: ".letta", File: "settings.json"}, Key: "hooks.disabled", Off: true},
		{At: Target{Scope: ScopeProject, Dir: ".letta", File: "settings.local.json"}, Key: "hooks.disabled", Off: true},
		{At: Target{Scope: ScopeUser, Dir: ".letta", File: "settings.json"}, Key: "hooks.disabled", Off: true},
	},
	Binaries: []string{"letta"},
	Homes:    []string{".letta"},
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".letta", File: "settings.local.json", Format: &lettaFormat},
	},
	Notes: []Note{
		{"", "Letta Code loads hooks when a session starts: start a new one (/restart)"},
	},
}

var lettaFormat = Format{
	Layout:      LayoutGroups,
	Settings:    []string{"disabled"},
	Entry:       claudeEntry,
	TimeoutUnit: time.Millisecond,
}
