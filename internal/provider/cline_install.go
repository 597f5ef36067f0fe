package provider

// Where Cline reads hook registrations (verified against cline/cline
// sdk/packages/core/src/hooks/hook-file-config.ts and
// sdk/packages/shared/src/storage, at 21cb8d25 and later):
//   - an executable file per event, named after it (TaskStart, PreToolUse,
//     ...; case and a .sh/.js/.py/... extension do not matter), in
//     .clinerules/hooks/ (workspace) or ~/Documents/Cline/Hooks/ (user).
//     Every version reads these two; newer ones also read .cline/hooks;
//   - hookshim writes a two-line sh script that execs hookshim, so the
//     payload reaches it on stdin; the script's marker line is how install
//     knows it as its own, and a file of the user's with that name is never
//     replaced;
//   - the extension runs hooks only with "Enable Hooks" on, and gives each
//     30 s (not configurable); a Windows Cline needs .ps1 hooks, which are
//     not written.
var clineInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".clinerules", File: "hooks", Format: &clineFormat},
		{Scope: ScopeUser, Dir: "Documents/Cline", File: "Hooks", Format: &clineFormat},
	},
	Events: []string{"TaskStart", "TaskResume", "UserPromptSubmit", "PreToolUse", "PostToolUse",
		"TaskComplete", "TaskCancel", "PreCompact", "Notification"},
	Binaries: []string{"cline"},
	Homes:    []string{"Documents/Cline", ".cline"},
	// The script is .clinerules/hooks/<Event>: the project is two folders
	// above it, whatever folder Cline runs it in.
	ProjectDir: `"${0%/*}/../.."`,
	Notes: []Note{
		{"", `Cline runs hook files only with "Enable Hooks" on in its settings`},
	},
}

const clineMarker = "# Written by `hookshim install --provider cline`"

var clineFormat = Format{
	Layout: LayoutScriptPerEvent,
	Marker: clineMarker,
	Script: func(command string) []byte {
		return []byte("#!/bin/sh\n" + clineMarker + "; `hookshim uninstall --provider cline` removes it.\nexec " + command + "\n")
	},
}
