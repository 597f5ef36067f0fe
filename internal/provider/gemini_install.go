package provider

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Where Gemini CLI reads hook registrations (verified against
// google-gemini/gemini-cli docs/hooks/reference.md and
// packages/core/src/hooks/hookRegistry.ts, and Gemini CLI 0.61.0 run here):
//   - ~/.gemini/settings.json (user) and .gemini/settings.json (project),
//     hooks.<Event>[] = {matcher?, hooks: [{name?, type: "command",
//     command, timeout}]};
//   - timeout is in MILLISECONDS: a Claude-style 30 is 30 ms;
//   - name lets hooksConfig.disabled switch the entry off and makes
//     identical name+command pairs run once across files;
//   - folder trust is on by default, and an untrusted folder disables
//     every hook, the user's own included (measured); trust is kept in
//     ~/.gemini/trustedFolders.json ({"<path>": "TRUST_FOLDER" |
//     "TRUST_PARENT" | "DO_NOT_TRUST"}) and switched off with
//     security.folderTrust.enabled: false in ~/.gemini/settings.json;
//   - AfterModel fires for every streamed chunk of every answer: a process
//     per chunk slows streaming down, so it is registered only on request.
var geminiInstall = &Install{
	Targets: []Target{
		{Scope: ScopeProject, Dir: ".gemini", File: "settings.json", Format: &geminiFormat},
		{Scope: ScopeUser, Dir: ".gemini", File: "settings.json", Format: &geminiFormat},
	},
	Timeout:        30 * time.Second,
	HandlerTimeout: 60 * time.Second, // 60000 ms
	Skip: PerEvent[string]{
		{"AfterModel", "fires once per streamed chunk"},
	},
	Binaries: []string{"gemini"},
	Homes:    []string{".gemini"},
	Switches: []Switch{
		{At: Target{Scope: ScopeProject, Dir: ".gemini", File: "settings.json"}, Key: "hooksConfig.enabled", Off: false},
		{At: Target{Scope: ScopeUser, Dir: ".gemini", File: "settings.json"}, Key: "hooksConfig.enabled", Off: false},
	},
	// Gemini CLI replaces $GEMINI_PROJECT_DIR in the command text with the
	// project folder, already shell-quoted (hookRunner.ts expandCommand),
	// before bash -c sees it: it is written bare, never in quotes.
	ProjectDir: `$GEMINI_PROJECT_DIR`,
	Notes: []Note{
		{ScopeProject, "Gemini CLI loads project hooks only in a trusted folder, and warns once when they change"},
	},
	Untrusted: geminiUntrusted,
}

// geminiUntrusted says why Gemini CLI runs no hook in project: folder
// trust is on and no rule of trustedFolders.json trusts it (a folder
// trusts itself and what is below it, a TRUST_PARENT rule its parent
// folder). A rule it cannot read trusts nothing; a file it cannot read
// says nothing, as does a project hookshim does not know.
func geminiUntrusted(read func(string) ([]byte, error), home, project string) string {
	if project == "" || home == "" {
		return ""
	}
	if b, err := read(filepath.Join(home, ".gemini", "settings.json")); err == nil &&
		gjson.GetBytes(b, "security.folderTrust.enabled").Type == gjson.False {
		return ""
	}
	b, err := read(filepath.Join(home, ".gemini", "trustedFolders.json"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	within := func(dir string) bool {
		rel, err := filepath.Rel(filepath.Clean(dir), project)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	trusted, distrusted := false, false
	gjson.ParseBytes(b).ForEach(func(k, v gjson.Result) bool {
		switch v.Str {
		case "TRUST_FOLDER":
			trusted = trusted || within(k.Str)
		case "TRUST_PARENT":
			trusted = trusted || within(filepath.Dir(k.Str))
		case "DO_NOT_TRUST":
			distrusted = distrusted || filepath.Clean(k.Str) == project
		}
		return true
	})
	switch {
	case distrusted:
		return "this folder is marked untrusted in ~/.gemini/trustedFolders.json: Gemini CLI runs no hook here, your user-level ones included"
	case !trusted:
		return "this folder is not trusted in ~/.gemini/trustedFolders.json: Gemini CLI runs no hook here, your user-level ones included"
	}
	return ""
}

var geminiFormat = Format{
	Layout:        LayoutGroups,
	Entry:         `{"name": "hookshim", "type": "command", "command": {{command}}, "timeout": {{timeout}}}`,
	TimeoutUnit:   time.Millisecond,
	HooksDisabled: "hooksConfig.disabled",
}
