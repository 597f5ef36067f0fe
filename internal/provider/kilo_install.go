package provider

// Where Kilo Code CLI loads hookshim's bridge plugin (verified against
// Kilo-Org/kilocode packages/opencode/src/config/paths.ts, whose config
// folders are the global one, every .kilocode and .kilo folder from the
// working directory up to the worktree, ~/.kilo and KILO_CONFIG_DIR, and
// OpenCode's plugin loader, which takes {plugin,plugins}/*.{ts,js} of each):
//   - .kilo/plugins/hookshim.js (project) and
//     ~/.config/kilo/plugins/hookshim.js (user; XDG_CONFIG_HOME moves
//     ~/.config). Kilo does not read .opencode/, so OpenCode's copy of the
//     plugin never runs under Kilo, nor Kilo's under OpenCode;
//   - the file is hookshim's alone: it is known by its first line and
//     rewritten whole; a different file of that name is never replaced;
//   - the plugin's own timeout (HOOKSHIM_KILO_TIMEOUT_MS, 30 s by default)
//     bounds each call.
var kiloInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".kilo/plugins", File: "hookshim.js", Format: &kiloFormat},
		{Scope: ScopeUser, Dir: ".config/kilo/plugins", DirEnv: "XDG_CONFIG_HOME", DirSub: "kilo/plugins", File: "hookshim.js", Format: &kiloFormat},
	},
	Binaries: []string{"kilo"},
	Homes:    []string{".config/kilo"},
	// No ProjectDir: the plugin runs the command in Kilo's folder, which
	// may be below the project root, and no variable names the root.
	Notes: []Note{
		{"", "Kilo loads plugins when it starts: restart it"},
	},
}

var kiloFormat = Format{
	Layout: LayoutGenerated,
	Render: KiloPlugin,
	// Any bridge version is hookshim's: an older one is replaced.
	Marker: "// hookshim bridge for Kilo",
}
