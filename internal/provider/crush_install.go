package provider

import "time"

// Where Crush reads hook registrations (verified against
// charmbracelet/crush at 37f36e93: docs/hooks/README.md and
// internal/config/load.go lookupConfigs):
//   - crush.json at the project root (.crush.json beside it wins a
//     conflict, and Crush also merges the ones above, up to the git root)
//     and ~/.config/crush/crush.json (user; XDG_CONFIG_HOME moves
//     ~/.config, CRUSH_GLOBAL_CONFIG names another folder, which hookshim
//     does not follow). The files are merged;
//   - the files are strict JSON: Crush refuses a crush.json with a comment
//     ("invalid JSON in config file", measured), whatever the jsonc blocks
//     of its docs suggest;
//   - hooks.<Event>[] = {name?, matcher?, command, timeout?}: flat
//     entries, no groups; the timeout is in seconds (default 30);
//   - commands run in Crush's embedded POSIX shell with CRUSH_PROJECT_DIR
//     set, so a project-relative binary is written through it, quoted.
var crushInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: "", File: "crush.json", Format: &crushFormat},
		{Scope: ScopeUser, Dir: ".config/crush", DirEnv: "XDG_CONFIG_HOME", DirSub: "crush", File: "crush.json", Format: &crushFormat},
	},
	Timeout:    30 * time.Second,
	ProjectDir: `"$CRUSH_PROJECT_DIR"`,
	Binaries:   []string{"crush"},
	Homes:      []string{".config/crush", ".local/share/crush"},
	Notes: []Note{
		{"", "Crush reads its hooks when it starts: restart it"},
	},
}

var crushFormat = Format{
	Layout: LayoutLists,
	Entry:  `{"name": "hookshim", "command": {{command}}, "timeout": {{timeout}}}`,
}
