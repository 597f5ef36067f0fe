package provider

import "time"

// Where Jan reads hook registrations (janhq/jan
// src-tauri/src/core/agent/hooks_config.rs, global_config.rs and
// tauri-plugin-agent-tools src/workspace.rs), merged in this order, every
// source's hooks running:
//   - each installed plugin's hooks/hooks.json (a JSON array of entries);
//   - ~/.jan/config.toml [[hooks]]: the user's, for every project; read by
//     the jan CLI agent (the desktop app reads the other two);
//   - the project's agent.toml [[hooks]], which lives outside the project,
//     in ~/.jan/projects/<folder name>-<hash of its canonical path>/ (a
//     linked git worktree maps to its main checkout). hookshim does not
//     compute Jan's hash of a path, so install writes the user scope only;
//   - an entry is event, matcher (a glob on the tool name; none or "*"
//     matches every tool), command and timeout_secs (default 60); an
//     unknown event or a blank command drops the entry, not the file;
//   - config.toml also holds the user's providers and API keys: it is
//     edited as text, and one install creates is readable by its owner
//     only. Jan itself rewrites the file through its typed settings when
//     it saves a provider: the hooks stay, comments do not.
var janInstall = &Install{
	Targets: []Target{
		{Scope: ScopeUser, Dir: ".jan", File: "config.toml", Format: &janFormat, Mode: 0o600},
	},
	Timeout:        30 * time.Second,
	HandlerTimeout: 60 * time.Second,
	Binaries:       []string{"jan"},
	Homes:          []string{".jan"},
	// Jan's matcher is a glob (Rust's glob crate, case-sensitive); Jan's
	// tool names are lower case, so reading it case-insensitively selects
	// the same tools.
	GlobMatcher: true,
	Notes: []Note{
		{ScopeUser, "Jan reads ~/.jan/config.toml hooks in its CLI agent; a project's own hooks go in its agent.toml under ~/.jan/projects/"},
	},
}

var janFormat = Format{
	Layout:   LayoutTOMLTables,
	EventKey: "event",
	Entry: `event = {{event}}
command = {{command}}
timeout_secs = {{timeout}}
`,
}
