package provider

import "time"

// Where Kimi Code reads hook registrations (verified against
// MoonshotAI/kimi-code d723cc47 docs/en/customization/hooks.md and
// packages/agent-core-v2/src/features/externalHooks/configSection.ts, and
// Kimi Code 2.1.0 run here):
//   - only ~/.kimi-code/config.toml (KIMI_CODE_HOME moves ~/.kimi-code):
//     there is no project-level hook file;
//   - one [[hooks]] table per rule with event, matcher, command and
//     timeout (seconds, 1 to 600). The schema is strict: any other key makes
//     the whole config.toml fail to load, so an entry has exactly these
//     four; matcher "" matches everything;
//   - the file also holds the user's models and keys: it is edited as
//     text, and a config.toml install creates is readable by its owner only.
var kimiInstall = &Install{
	Targets: []Target{
		{Scope: ScopeUser, Dir: ".kimi-code", DirEnv: "KIMI_CODE_HOME", File: "config.toml", Format: &kimiFormat, Mode: 0o600},
	},
	Timeout:  30 * time.Second,
	Binaries: []string{"kimi"},
	Homes:    []string{".kimi-code"},
}

var kimiFormat = Format{
	Layout:   LayoutTOMLTables,
	EventKey: "event",
	Entry: `event = {{event}}
matcher = ""
command = {{command}}
timeout = {{timeout}}
`,
}
