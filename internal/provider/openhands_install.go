package provider

import (
	"errors"
	"time"

	"github.com/tidwall/gjson"
)

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
	},
}

var openhandsFormat = Format{
	Layout:   LayoutGroups,
	TopLevel: true,
	Entry:    claudeEntry,
	Refuse:   refuseOpenHands,
}

// refuseOpenHands keeps hookshim out of a hooks.json its top-level
// snake_case entries would not work in (config.py
// _normalize_hooks_input): with a "hooks" key OpenHands reads that key
// alone, and a PascalCase event next to its snake_case spelling makes the
// whole file fail to load.
func refuseOpenHands(text string) error {
	doc := gjson.Parse(text)
	if doc.Get("hooks").IsObject() {
		return errors.New(`its events are inside "hooks" (Claude Code's form), and OpenHands then reads nothing else: move them to the top level in snake_case (pre_tool_use, stop...)`)
	}
	var err error
	doc.ForEach(func(k, _ gjson.Result) bool {
		switch k.Str {
		case "PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd":
			err = errors.New("it names an event " + k.Str + ", and OpenHands refuses a file with both spellings of one event: rename its events in snake_case (pre_tool_use, stop...)")
			return false
		}
		return true
	})
	return err
}
