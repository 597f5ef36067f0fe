package provider

import "time"

// Where Trae reads hook registrations (rtk-ai/rtk src/hooks/init/trae.rs,
// third-party; Trae's own reference page was not readable):
//   - .trae/hooks.json (project) and ~/.trae/hooks.json (user; Trae CN
//     reads ~/.trae-cn/hooks.json, which is not written: install for it by
//     hand or copy the file);
//   - {"version": 1, "hooks": {<Event>: [{matcher?, hooks: [{type:
//     "command", command, timeout}]}]}}, Claude's groups under a version
//     key the file must carry; timeout in seconds. A new file starts with
//     the version; an existing file is expected to have it already;
//   - no project-folder variable is documented, so a --bin inside the
//     project is refused.
var traeInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".trae", File: "hooks.json", Format: &traeFormat},
		{Scope: ScopeUser, Dir: ".trae", File: "hooks.json", Format: &traeFormat},
	},
	Timeout:  30 * time.Second,
	Binaries: []string{"trae", "trae-cn"},
	Homes:    []string{".trae", ".trae-cn"},
	Notes: []Note{
		{ScopeUser, "Trae CN reads ~/.trae-cn/hooks.json instead: copy the entries there for it"},
	},
}

var traeFormat = Format{
	Layout:   LayoutGroups,
	Skeleton: `{"version": 1}`,
	Entry:    claudeEntry,
}
