package provider

// Where Pi loads hookshim's bridge extension (verified against
// @mariozechner/pi-coding-agent 0.73.1: dist/core/extensions/loader.js,
// which loads *.ts and *.js of <cwd>/.pi/extensions and of
// <agent dir>/extensions, docs/extensions.md, and Pi run here):
//   - .pi/extensions/hookshim.js (project) and
//     ~/.pi/agent/extensions/hookshim.js (user; PI_CODING_AGENT_DIR moves
//     ~/.pi/agent). Pi has no command hooks: the extension (the pi
//     provider's pi_extension.js) forwards every event hookshim knows to
//     `hookshim run --provider pi`, so one file covers every event;
//   - the project folder is Pi's working directory, not the repository
//     root: Pi started in a subfolder does not load the project copy;
//   - the file is hookshim's alone: it is known by its first line and
//     rewritten whole; a different file of that name is never replaced;
//   - the extension's own timeout (HOOKSHIM_PI_TIMEOUT_MS, 30 s by
//     default) bounds each call; Pi has none.
var piInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".pi/extensions", File: "hookshim.js", Format: &piFormat},
		{Scope: ScopeUser, Dir: ".pi/agent/extensions", DirEnv: "PI_CODING_AGENT_DIR", DirSub: "extensions", File: "hookshim.js", Format: &piFormat},
	},
	Binaries: []string{"pi"},
	Homes:    []string{".pi/agent"},
	Notes: []Note{
		{"", "Pi loads extensions when it starts: restart it (or /reload)"},
	},
}

var piFormat = Format{
	Layout: LayoutGenerated,
	Render: PiExtension,
	// Any bridge version is hookshim's: an older one is replaced.
	Marker: "// hookshim bridge for Pi",
}
