package provider

// Where Windsurf reads Cascade hook registrations (verified against
// docs.windsurf.com/windsurf/cascade/hooks, read 2026-11):
//   - .windsurf/hooks.json (workspace) and ~/.codeium/windsurf/hooks.json
//     (user; the JetBrains plugin reads ~/.codeium/hooks.json instead, not
//     written here), {"hooks": {"<event>": [{command, show_output?,
//     working_directory?}]}}; every file that names an event runs;
//   - there is no version key, no matcher and no timeout: every entry runs
//     for every action of its event, and the tool's own limit applies;
//   - show_output is left out (off): hookshim's stdout is empty and its
//     stderr is for the agent.
var windsurfInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".windsurf", File: "hooks.json", Format: &windsurfFormat},
		{Scope: ScopeUser, Dir: ".codeium/windsurf", File: "hooks.json", Format: &windsurfFormat},
	},
	// Hooks run in the workspace root (working_directory's default).
	ProjectDir: `.`,
	Binaries:   []string{"windsurf"},
	// The editor's data folders (Linux, macOS) tell it is installed
	// where its program is not in PATH and Cascade has not run yet.
	Homes:        []string{".codeium/windsurf", ".windsurf", ".config/Windsurf", "Library/Application Support/Windsurf"},
	ProjectMarks: []string{".windsurf", ".windsurfrules"},
}

var windsurfFormat = Format{
	Layout: LayoutLists,
	Entry:  `{"command": {{command}}}`,
}
