package provider

// Where Cline reads hook registrations (verified against cline/cline
// sdk/packages/core/src/hooks/hook-file-config.ts and
// sdk/packages/shared/src/storage, at 21cb8d25 and later):
//   - an executable file per event, named after it (TaskStart, PreToolUse,
//     ...; case and a .sh/.js/.py/... extension do not matter), in
//     .clinerules/hooks/ (workspace) or ~/Documents/Cline/Hooks/ (user).
//     Every version reads these two; the SDK runtime (CLI 3.x, measured
//     with 3.0.65) also reads .cline/hooks and ~/.cline/hooks, and runs
//     every matching file it finds in any of them, so hookshim writes only
//     the folders all versions share (a second copy in .cline/hooks would
//     run twice under the CLI): Target.AlsoRead makes install move
//     hookshim's scripts found in .cline/hooks (~/.cline/hooks) into these
//     folders, uninstall remove them, and status and doctor report them;
//   - hookshim writes a two-line sh script that execs hookshim, so the
//     payload reaches it on stdin; the script's marker line is how install
//     knows it as its own, and a file of the user's with that name is never
//     replaced;
//   - the extension runs hooks only with "Enable Hooks" on, and gives each
//     30 s (not configurable); a Windows Cline needs .ps1 hooks, which are
//     not written.
var clineInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".clinerules", File: "hooks", Format: &clineFormat, AlsoRead: ".cline/hooks"},
		{Scope: ScopeUser, Dir: "Documents/Cline", File: "Hooks", Format: &clineFormat, AlsoRead: ".cline/hooks"},
	},
	Events: []string{"TaskStart", "TaskResume", "UserPromptSubmit", "PreToolUse", "PostToolUse",
		"TaskComplete", "TaskCancel", "PreCompact", "Notification", "agent_error", "session_shutdown"},
	// The SDK runtime (the CLI 3.x, extension 4.x) also runs TaskError and
	// SessionShutdown files, for events its payloads name by runtime name
	// (hook-file-config.ts, HOOK_CONFIG_FILE_EVENT_MAP); the extension
	// before it knows neither file and ignores them.
	Files: PerEvent[string]{
		{"agent_error", "TaskError"},
		{"session_shutdown", "SessionShutdown"},
	},
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
