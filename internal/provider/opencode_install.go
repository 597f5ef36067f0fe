package provider

// Where OpenCode loads hookshim's bridge plugin (verified against
// anomalyco/opencode packages/opencode/src/config/plugin.ts, which loads
// {plugin,plugins}/*.{ts,js} from every config folder, the plugins docs,
// and OpenCode 1.18.33 run here):
//   - .opencode/plugins/hookshim.js (project) and
//     ~/.config/opencode/plugins/hookshim.js (user; XDG_CONFIG_HOME moves
//     ~/.config). OpenCode has no command hooks: the plugin (the
//     opencode provider's opencode_plugin.js) forwards every plugin hook
//     to `hookshim run --provider opencode`, so one file covers every event;
//   - the file is hookshim's alone: it is known by its first line and
//     rewritten whole; a different file of that name is never replaced;
//   - the plugin's own timeout (HOOKSHIM_OPENCODE_TIMEOUT_MS, 30 s by
//     default) bounds each call; OpenCode has none.
var openCodeInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".opencode/plugins", File: "hookshim.js", Format: &openCodeFormat},
		{Scope: ScopeUser, Dir: ".config/opencode/plugins", DirEnv: "XDG_CONFIG_HOME", DirSub: "opencode/plugins", File: "hookshim.js", Format: &openCodeFormat},
	},
	Binaries: []string{"opencode"},
	Homes:    []string{".config/opencode"},
	// No ProjectDir: the plugin runs the command in OpenCode's folder,
	// which may be below the project root, and no variable names the root.
	Notes: []Note{
		{"", "OpenCode loads plugins when it starts: restart it"},
	},
}

var openCodeFormat = Format{
	Layout: LayoutGenerated,
	Render: OpenCodePlugin,
	// Any bridge version is hookshim's: an older one is replaced.
	Marker: "// hookshim bridge for OpenCode",
}
