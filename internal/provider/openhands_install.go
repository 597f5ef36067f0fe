package provider

import "time"

// Where OpenHands reads hook registrations (OpenHands/software-agent-sdk
// 611629e6 openhands-sdk/openhands/sdk/hooks/config.py HookConfig.load):
//   - the first of <project>/.openhands/hooks.json and
//     ~/.openhands/hooks.json that exists, and only that one: a project
//     file hides the user file (the agent server reads the project file
//     only);
//   - event keys at the top level, snake_case as the SDK writes them
//     (HookConfig.save), each a list of {matcher, hooks: [{type, command,
//     timeout}]} groups; timeout in seconds (default 60). A file in
//     Claude's {"hooks": …} form is read from that key alone;
//   - hooks run through a shell in the project folder with
//     OPENHANDS_PROJECT_DIR set.
var openhandsInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".openhands", File: "hooks.json", Format: &openhandsFormat},
		{Scope: ScopeUser, Dir: ".openhands", File: "hooks.json", Format: &openhandsFormat},
	},
	Timeout:    30 * time.Second,
	ProjectDir: `"$OPENHANDS_PROJECT_DIR"`,
	Binaries:   []string{"openhands"},
	Homes:      []string{".openhands"},
	Notes: []Note{
		{Text: "OpenHands reads one hooks.json: .openhands/hooks.json in the project hides ~/.openhands/hooks.json, so register in the scope that applies"},
		{Text: `a hooks.json written as {"hooks": {…}} is read from that key alone: move hookshim's entries into it, or the user's out of it`},
	},
}

var openhandsFormat = Format{
	Layout:   LayoutGroups,
	TopLevel: true,
	Entry:    claudeEntry,
}
