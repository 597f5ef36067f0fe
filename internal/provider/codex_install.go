package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/event"
)

// Where Codex reads hook registrations (verified against
// https://developers.openai.com/codex/hooks, openai/codex
// codex-rs/core/src/features.rs, and Codex 0.169.0 run here):
//   - hooks.json next to each config layer: ~/.codex/hooks.json (user;
//     CODEX_HOME moves ~/.codex) and .codex/hooks.json (project, loaded
//     only in a trusted project), Claude's layout, timeout in seconds;
//   - hooks.json rather than [hooks] in config.toml, so that hookshim never
//     rewrites the file that holds the user's models and credentials;
//   - the hooks feature is stable and on by default (Feature::CodexHooks,
//     default_enabled: true), so no [features] table is written; install
//     warns when config.toml turns it off;
//   - hooks.json may hold nothing but the hooks key (HooksFile is
//     deny_unknown_fields in codex-rs/config hook_config.rs); an event key a
//     version does not know is ignored (HookEventsToml has named fields and
//     accepts others), so StopFailure is safe on 0.169.0, which lacks it;
//   - SessionEnd and Interrupt hooks are clamped to 3 s, with a warning each
//     time a longer one is configured (measured on 0.169.0), so they get 3;
//   - new or changed hooks do not run until reviewed in /hooks: Codex keys
//     its trust on a hash of the command, so moving the binary, or any
//     change to the command line, needs a new review. install rewrites
//     nothing that is current, so the user reviews hookshim's entries once;
//   - unknown root keys, $schema included, make Codex refuse the whole
//     hooks.json: install writes only "hooks";
//   - 0.171.0 (same events and schemas as 0.169.0) reads the same files;
//     hooks are on by default since 0.124.
var codexInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".codex", File: "hooks.json", Format: &claudeFormat},
		{Scope: ScopeUser, Dir: ".codex", DirEnv: "CODEX_HOME", File: "hooks.json", Format: &claudeFormat},
	},
	Timeout:        30 * time.Second,
	EventTimeouts:  PerEvent[time.Duration]{{"SessionEnd", 3 * time.Second}, {"Interrupt", 3 * time.Second}},
	HandlerTimeout: 600 * time.Second,
	// (hooks docs: matchers on apply_patch also take Edit and Write)
	Covers: []Cover{
		{"apply_patch", []string{event.ToolFileEdit, event.ToolFileWrite}},
		{"Edit", []string{event.ToolFileEdit, event.ToolFileWrite}},
		{"Write", []string{event.ToolFileEdit, event.ToolFileWrite}},
	},
	Binaries: []string{"codex"},
	Homes:    []string{".codex"},
	// Codex also reads [[hooks.<Event>]] tables, Claude's layout in TOML,
	// from each layer's config.toml.
	Imports: []Target{
		{Scope: ScopeProject, Dir: ".codex", File: "config.toml", Format: &claudeFormat},
		{Scope: ScopeUser, Dir: ".codex", DirEnv: "CODEX_HOME", File: "config.toml", Format: &claudeFormat},
	},
	Switches: []Switch{
		{At: Target{Scope: ScopeUser, Dir: ".codex", DirEnv: "CODEX_HOME", File: "config.toml"}, Key: "features.hooks", Off: false},
		{At: Target{Scope: ScopeUser, Dir: ".codex", DirEnv: "CODEX_HOME", File: "config.toml"}, Key: "features.codex_hooks", Off: false},
		{At: Target{Scope: ScopeProject, Dir: ".codex", File: "config.toml"}, Key: "features.hooks", Off: false},
		{At: Target{Scope: ScopeProject, Dir: ".codex", File: "config.toml"}, Key: "features.codex_hooks", Off: false},
	},
	// No ProjectDir: Codex sets no project-folder variable and runs hooks
	// in the session's folder, which may be below the project root.
	Notes: []Note{
		{"", "Codex runs new or changed hooks only after you review them: open /hooks in codex and trust hookshim's entries"},
		{ScopeProject, "Codex loads .codex/hooks.json only in a project it trusts"},
	},
}
