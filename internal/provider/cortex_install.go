package provider

import "time"

// Where Cortex Code reads hook registrations (docs.snowflake.com
// user-guide/cortex-code/settings and the Desktop hooks page):
//   - ~/.snowflake/cortex/hooks.json, the global hooks file, in Claude's
//     {"hooks": {<Event>: [{matcher?, hooks: [{type: "command", command,
//     timeout}]}]}} layout, timeout in seconds; hookshim writes there;
//   - ~/.snowflake/cortex/settings.json may hold hooks too (the Desktop
//     app's "User" storage location): import reads it, install leaves it
//     to the user's other settings;
//   - no project-scope file is documented, so install writes the user
//     scope only.
var cortexInstall = &Install{
	Targets: []Target{
		{Scope: ScopeUser, Dir: ".snowflake/cortex", File: "hooks.json", Format: &claudeFormat},
	},
	Timeout:  30 * time.Second,
	Events:   []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "Notification", "SubagentStop", "Stop", "PreCompact", "SessionEnd"},
	Binaries: []string{"cortex"},
	Homes:    []string{".snowflake/cortex"},
	Imports: []Target{
		{Scope: ScopeUser, Dir: ".snowflake/cortex", File: "settings.json", Format: &claudeFormat},
	},
}
