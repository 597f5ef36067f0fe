package policy

import (
	"strings"

	"github.com/hookshim/hookshim/internal/event"
)

var outsideProject = &spec{
	Info: Info{
		Name:    "hookshim/outside-project",
		Summary: "deny file writes outside the project folder",
		Events:  toolEvents,
		Catches: "file tools that write or edit a file (every file of a multi-file patch) outside the project folder " +
			"(the tool's project folder, else the event's working folder), relative paths resolved there, `..` included; " +
			"shell commands whose visible targets are outside: redirections (`> f`, `>> f`, `2> f`, `&> f`), `tee`, `touch`, " +
			"`mkdir`, `rm`, `rmdir`, `mv` (source and destination), the destination of `cp`, `install`, `ln`, `rsync`, `scp` " +
			"(or `-t DIR`), `truncate`, `dd of=`; `cd` earlier in the line is followed. `~` and `$HOME` are outside.",
		Misses: "files written by programs on their own (`npm install -g`, `go build -o /usr/local/bin/x`, `sed -i`, a script), " +
			"paths only known at run time (`$OUT/x`, `$(mktemp)`), symbolic links inside the project that point out of it, " +
			"and calls whose event carries no folder.",
		Params: []Param{{"allow", "array of globs", "paths outside the project that may be written, e.g. `[\"/tmp/**\", \"~/.cache/**\"]`; `**` spans folders"}},
		Denied: []Example{
			{Tool: event.ToolFileWrite, Text: "/etc/hosts"},
			{Tool: event.ToolFileEdit, Text: "../other-project/main.go"},
			{Tool: event.ToolFileWrite, Text: "/home/u/.bashrc"},
			{Tool: event.ToolShell, Text: "echo 'export X=1' >> ~/.bashrc"},
			{Tool: event.ToolShell, Text: "cp build/app /usr/local/bin/"},
			{Tool: event.ToolShell, Text: "cd .. && touch x"},
			{Tool: event.ToolShell, Text: "mv notes.txt /tmp/"},
			{Tool: event.ToolShell, Text: "ls > /tmp/out", With: `{"allow": ["/var/tmp/**"]}`},
		},
		Allowed: []Example{
			{Tool: event.ToolFileWrite, Text: "src/main.go"},
			{Tool: event.ToolFileEdit, Text: "/home/u/project/README.md"},
			{Tool: event.ToolFileRead, Text: "/etc/hosts"},
			{Tool: event.ToolShell, Text: "go test ./... > test.log 2>&1"},
			{Tool: event.ToolShell, Text: "cp /etc/hosts ./hosts.copy"},
			{Tool: event.ToolShell, Text: "make build 2>/dev/null"},
			{Tool: event.ToolShell, Text: "echo '> /etc/passwd'"},
			{Tool: event.ToolShell, Text: "ls > /tmp/out", With: `{"allow": ["/tmp/**"]}`},
		},
	},
	compile: func(p *params) (func(ev *event.Event) string, error) {
		allow := p.strs("allow")
		p.checkGlobs("allow", allow)
		g := compileGlobs(allow)
		return func(ev *event.Event) string { return outside(ev, g) }, nil
	},
}

func outside(ev *event.Event, allow globs) string {
	if ev.Tool == nil {
		return ""
	}
	root := ev.ProjectDir
	if root == "" {
		root = ev.Cwd
	}
	if root == "" || !strings.HasPrefix(root, "/") {
		return ""
	}
	root = clean(root)
	out := func(p, cwd string) bool {
		p = expand(strings.ReplaceAll(p, `\`, "/"), cwd)
		if p == "" || strings.HasPrefix(p, "$") || specialFile(p) || under(p, root) || allow.match(p) {
			return false
		}
		return strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~")
	}
	cwd := ev.Cwd
	if cwd == "" {
		cwd = root
	}
	switch ev.Tool.Name {
	case event.ToolFileWrite, event.ToolFileEdit:
		for _, p := range filePaths(ev) {
			if out(p, cwd) {
				return "writing " + p + " is outside the project folder " + root
			}
		}
		return ""
	}
	runs, _, _ := shellOf(ev)
	for _, r := range runs {
		c := r.cmd
		wd := r.cwd
		if wd == "" {
			wd = cwd
		}
		for _, w := range writes(c) {
			if out(w, wd) {
				return showCmd(c) + " writes " + expand(w, wd) + ", outside the project folder " + root
			}
		}
	}
	return ""
}
