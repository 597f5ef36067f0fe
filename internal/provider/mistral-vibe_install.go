package provider

import "time"

// Where Mistral Vibe reads hook registrations (mistralai/mistral-vibe
// ac8f1a09 vibe/core/config/harness_files/_harness_manager.py hook_files,
// vibe/core/hooks/config.py; docs.mistral.ai/vibe/code/cli/hooks):
//   - <project>/.vibe/hooks.toml, read first and only in a trusted folder,
//     then ~/.vibe/hooks.toml (VIBE_HOME moves ~/.vibe);
//   - one [[hooks]] table per hook with name (unique across both files: the
//     first one read wins), type (the event), command, and optional match
//     (tool hooks only), timeout (seconds, float, default 60), strict and
//     description. hookshim writes no match, which means every tool and is
//     the only way a post_agent entry is valid;
//   - hookshim's entries are named hookshim-<event> in both files: with
//     both scopes installed, Vibe runs the project's and reports the
//     user's as a duplicate name, so an event never runs hookshim twice;
//   - install writes the 3.x event names; the 2.x ones (before_tool,
//     after_tool, post_agent_turn) are written only when named with
//     --events. Vibe 2.x loads hooks only with enable_experimental_hooks =
//     true in config.toml.
var vibeInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".vibe", File: "hooks.toml", Format: &vibeFormat},
		{Scope: ScopeUser, Dir: ".vibe", DirEnv: "VIBE_HOME", File: "hooks.toml", Format: &vibeFormat},
	},
	Timeout: 30 * time.Second,
	Skip: PerEvent[string]{
		{"before_tool", "Vibe 2.x spelling of pre_tool"},
		{"after_tool", "Vibe 2.x spelling of post_tool"},
		{"post_agent_turn", "Vibe 2.x spelling of post_agent"},
	},
	Binaries: []string{"vibe"},
	Homes:    []string{".vibe"},
	// match is an fnmatch glob, case-insensitive, or re:<full-match
	// regex> (vibe/core/utils/matching.py).
	GlobMatcher: true,
	Notes: []Note{
		{Scope: ScopeProject, Text: "Vibe reads .vibe/hooks.toml only in a trusted folder (trust it, or run vibe --trust)"},
		{Text: "Vibe 2.x loads hooks only with enable_experimental_hooks = true in ~/.vibe/config.toml, and spells the events before_tool, after_tool and post_agent_turn (install --events before_tool,after_tool,post_agent_turn)"},
	},
}

var vibeFormat = Format{
	Layout:   LayoutTOMLTables,
	EventKey: "type",
	Entry: `name = {{name}}
type = {{event}}
command = {{command}}
timeout = {{timeout}}
`,
}
