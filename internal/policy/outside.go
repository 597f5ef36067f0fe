package policy

import (
	"os"
	"path/filepath"
	"slices"
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
			"(or `-t DIR`), `truncate`, `dd of=`, the files `sed -i` and `perl -i` edit in place and those `chmod`, `chown` and `chgrp` change; the folder each command runs in is followed (`cd`, `env -C`, as the shell scopes them). " +
			"`~` and `$HOME` are outside. The temp folders (`/tmp`, `$TMPDIR`, `/var/tmp`, `/private/tmp`, `/dev/shm`) are not reported unless `allow_temp` is false.",
		Misses: "files written by programs on their own (`npm install -g`, `go build -o /usr/local/bin/x`, `awk -i inplace`, a script), " +
			"paths only known at run time (`$OUT/x`, `$(mktemp)`, a relative path after `cd \"$X\"`), symbolic links inside the project that point out of it, " +
			"and calls whose event carries no folder.",
		Params: []Param{
			{"allow", "array of globs", "paths outside the project that may be written, e.g. `[\"~/.cache/**\"]`; `**` spans folders"},
			{"allow_temp", "boolean", "whether the temp folders (`/tmp`, `$TMPDIR`, `/var/tmp`, `/private/tmp`, `/dev/shm`) may be written (default true); false reports writes there too"},
		},
		Denied: []Example{
			{Tool: event.ToolFileWrite, Text: "/etc/hosts"},
			{Tool: event.ToolFileEdit, Text: "../other-project/main.go"},
			{Tool: event.ToolFileWrite, Text: "/home/u/.bashrc"},
			{Tool: event.ToolShell, Text: "echo 'export X=1' >> ~/.bashrc"},
			{Tool: event.ToolShell, Text: "cp build/app /usr/local/bin/"},
			{Tool: event.ToolShell, Text: "cd .. && touch x"},
			{Tool: event.ToolShell, Text: "mv notes.txt ../"},
			{Tool: event.ToolShell, Text: "sed -i 's/^127.0.0.1.*/&  api.local/' /etc/hosts"},
			{Tool: event.ToolShell, Text: "chmod 644 ~/.ssh/authorized_keys"},
			{Tool: event.ToolShell, Text: "ls > /tmp/out", With: `{"allow_temp": false}`},
		},
		Allowed: []Example{
			{Tool: event.ToolFileWrite, Text: "src/main.go"},
			{Tool: event.ToolFileEdit, Text: "/home/u/project/README.md"},
			{Tool: event.ToolFileRead, Text: "/etc/hosts"},
			{Tool: event.ToolShell, Text: "go test ./... > test.log 2>&1"},
			{Tool: event.ToolShell, Text: "cp /etc/hosts ./hosts.copy"},
			{Tool: event.ToolShell, Text: "sed -n '/api/p' /etc/hosts"},
			{Tool: event.ToolShell, Text: "perl -pi -e 's/foo/bar/g' src/*.go && chmod +x scripts/run.sh"},
			{Tool: event.ToolShell, Text: "make build 2>/dev/null"},
			{Tool: event.ToolShell, Text: "echo '> /etc/passwd'"},
			{Tool: event.ToolShell, Text: "ls > /tmp/out"},
			{Tool: event.ToolShell, Text: "(cd /tmp && touch x)"},
			{Tool: event.ToolShell, Text: "mkdir -p ~/.cache/x", With: `{"allow": ["~/.cache/**"]}`},
		},
	},
	compile: func(p *params) (func(ev *event.Event) string, error) {
		allow := p.strs("allow")
		p.checkGlobs("allow", allow)
		if p.boolean("allow_temp", true) {
			allow = append(allow, tempDirs()...)
		}
		g := compileGlobs(allow)
		return func(ev *event.Event) string { return outside(ev, g) }, nil
	},
}

// tempDirs are the temp folders, as globs: the usual ones and $TMPDIR.
func tempDirs() []string {
	dirs := slices.Clone(systemTemp)
	if t := os.Getenv("TMPDIR"); strings.HasPrefix(t, "/") && clean(t) != "/" {
		dirs = append(dirs, clean(filepath.ToSlash(t)))
	}
	out := make([]string, 0, 2*len(dirs))
	for _, d := range dirs {
		out = append(out, d, d+"/**")
	}
	return out
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
	runs := shellOf(ev)
	for _, r := range runs {
		c := r.cmd
		wd := r.cwd // "": known only at run time, and relative paths with it
		for _, w := range writes(c) {
			if out(w, wd) {
				return showCmd(c) + " writes " + expand(w, wd) + ", outside the project folder " + root
			}
		}
	}
	return ""
}
