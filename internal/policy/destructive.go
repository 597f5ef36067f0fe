package policy

import (
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/shellcmd"
)

var destructiveShell = &spec{
	Info: Info{
		Name:    "hookshim/destructive-shell",
		Summary: "deny shell commands that destroy the machine or the user's data outside the project",
		Events:  toolEvents,
		Catches: "recursive deletes (`rm -r`, `find -delete`, `find -exec rm`), recursive `chmod`/`chown`/`chgrp` and `mv` " +
			"of `/`, `/*`, the home folder (`~`, `$HOME`, `~/*`, a folder right in it such as `~/Documents`), " +
			"system folders and the folders right in them (`/etc`, `/usr`, `/usr/lib`, `/var`, `/boot`, `/lib`, `/home`, `/Users`, …), " +
			"also when the path is reached with `..` or after `cd`; `rm --no-preserve-root`; writes to block devices " +
			"(`dd of=/dev/sda`, `> /dev/nvme0n1`, `shred`, `wipefs`, partitioning tools); `mkfs`, `mke2fs`, `newfs`, " +
			"`diskutil eraseDisk`; shell fork bombs. Wrapped commands count: `a && …`, `bash -c '…'`, `sudo …`, " +
			"`env`, `xargs`, `$(…)`, `eval`, subshells. A line that cannot be read to its end and mentions " +
			"`rm`, `dd`, `mkfs`, `chmod` or `chown` is answered with ask.",
		Misses: "deletes whose target is only known when the command runs (`rm -rf \"$DIR\"/`, `xargs rm -rf`, `find \"$X\" -delete`), " +
			"deletes of single files or of folders deeper than one level under a system folder (`/usr/local/lib/x`) or the home folder " +
			"(`~/src/old`), destruction through other programs (`python -c 'shutil.rmtree(\"/\")'`, `git clean` outside the project), " +
			"and what a script run by the command does.",
		Params: []Param{{"allow_paths", "array of globs", "paths never reported, e.g. `[\"/var/tmp/**\", \"~/scratch\"]`; `**` spans folders"}},
		Denied: []Example{
			{Tool: event.ToolShell, Text: "rm -rf /"},
			{Tool: event.ToolShell, Text: "rm -rf ~"},
			{Tool: event.ToolShell, Text: "rm -fr $HOME/*"},
			{Tool: event.ToolShell, Text: "sudo rm -r --no-preserve-root /"},
			{Tool: event.ToolShell, Text: "npm test && rm -rf /usr"},
			{Tool: event.ToolShell, Text: "bash -c 'cd / && rm -rf *'"},
			{Tool: event.ToolShell, Text: "rm -rf ../../..", Notes: "from /home/u/project: /"},
			{Tool: event.ToolShell, Text: "find / -name '*.log' -delete"},
			{Tool: event.ToolShell, Text: "dd if=/dev/zero of=/dev/sda bs=1M"},
			{Tool: event.ToolShell, Text: "sudo mkfs.ext4 /dev/nvme0n1p1"},
			{Tool: event.ToolShell, Text: ":(){ :|:& };:"},
			{Tool: event.ToolShell, Text: "chmod -R 777 /"},
			{Tool: event.ToolShell, Text: "sudo chown -R me /etc"},
			{Tool: event.ToolShell, Text: "echo $(rm -rf ~/Documents)"},
		},
		Allowed: []Example{
			{Tool: event.ToolShell, Text: "rm -rf ./build"},
			{Tool: event.ToolShell, Text: "rm -rf node_modules dist"},
			{Tool: event.ToolShell, Text: "rm -rf /home/u/project/target"},
			{Tool: event.ToolShell, Text: "echo 'rm -rf /'"},
			{Tool: event.ToolShell, Text: `git commit -m "guard against rm -rf /"`},
			{Tool: event.ToolShell, Text: "git commit -m 'explain `rm -rf /`'"},
			{Tool: event.ToolShell, Text: "grep -r 'rm -rf /' docs"},
			{Tool: event.ToolShell, Text: "rm -rf /tmp/build-cache"},
			{Tool: event.ToolShell, Text: "rm -rf ~/.cache/pip"},
			{Tool: event.ToolShell, Text: "dd if=disk.img of=backup.img"},
			{Tool: event.ToolShell, Text: "chmod -R 755 ./scripts"},
			{Tool: event.ToolShell, Text: "rm -rf /var/tmp/x", With: `{"allow_paths": ["/var/tmp/**"]}`},
		},
	},
	compile: func(p *params) (func(ev *event.Event) string, error) {
		allow := p.strs("allow_paths")
		p.checkGlobs("allow_paths", allow)
		g := compileGlobs(allow)
		return func(ev *event.Event) string { return destructive(ev, g) }, nil
	},
}

// systemDirs are the folders whose loss breaks the machine: the folder, its
// contents and the folders right in it are protected.
var systemDirs = []string{
	"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
	"/proc", "/root", "/sbin", "/srv", "/sys", "/usr", "/var", "/snap", "/nix",
	"/Applications", "/Library", "/System", "/Users", "/Volumes", "/private", "/cores",
}

// homeSpare are folders right in the home folder that hold only caches.
var homeSpare = []string{".cache", ".npm", ".yarn", ".pnpm-store", ".Trash"}

func destructive(ev *event.Event, allow globs) string {
	if ev.Tool == nil || ev.Tool.Name != event.ToolShell {
		return ""
	}
	if forkBomb(ev.Tool.Command) {
		return "a fork bomb exhausts the machine's processes"
	}
	runs, line, complete := shellOf(ev)
	for _, r := range runs {
		if f := destroys(r.cmd, r.cwd, ev.ProjectDir, allow); f != "" {
			return f
		}
	}
	if !complete {
		for _, w := range []string{"rm ", "dd ", "mkfs", "chmod ", "chown "} {
			if strings.Contains(line, w) {
				return unsure + "this command line could not be read to its end and it runs " + strings.TrimSpace(w) + "; check it by hand"
			}
		}
	}
	return ""
}

// destroys says what a simple command would destroy, or "".
func destroys(c shellcmd.Command, cwd, project string, allow globs) string {
	name := c.Name()
	args := c.Args
	if len(args) == 0 {
		return ""
	}
	short, long := flags(args[1:])
	recursive := strings.ContainsAny(short, "rR") || slices.Contains(long, "recursive")
	danger := func(targets []string) string {
		for _, t := range targets {
			p := expand(t, cwd)
			if allow.match(p) {
				continue
			}
			if why := vital(p, project); why != "" {
				return show(args) + " would " + verb(name) + " " + why
			}
		}
		return ""
	}
	switch {
	case name == "rm":
		if slices.Contains(long, "no-preserve-root") {
			return show(args) + " deletes from the root folder"
		}
		if recursive {
			return danger(operands(args[1:]))
		}
	case name == "chmod" || name == "chown" || name == "chgrp":
		if recursive {
			ops := operands(args[1:])
			if len(ops) > 1 {
				return danger(ops[1:]) // the mode or owner comes first
			}
		}
	case name == "mv":
		ops := operands(args[1:])
		if len(ops) > 1 {
			return danger(ops[:len(ops)-1])
		}
	case name == "find":
		var roots []string
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "-") || a == "!" || a == "(" {
				break
			}
			roots = append(roots, a)
		}
		if len(roots) == 0 {
			roots = []string{"."}
		}
		for i, a := range args {
			if a == "-delete" || (a == "-exec" || a == "-execdir") && i+1 < len(args) && baseName(args[i+1]) == "rm" {
				return danger(roots)
			}
		}
	case name == "dd":
		for _, a := range args[1:] {
			if of, ok := strings.CutPrefix(a, "of="); ok && blockDevice(of) {
				return show(args) + " overwrites the disk " + of
			}
		}
	case strings.HasPrefix(name, "mkfs") || name == "mke2fs" || name == "newfs" || name == "mkswap":
		return show(args) + " formats a disk"
	case name == "diskutil":
		for _, a := range args[1:] {
			switch strings.ToLower(a) {
			case "erasedisk", "erasevolume", "partitiondisk", "zerodisk", "randomdisk", "secureerase":
				return show(args) + " erases a disk"
			}
		}
	case name == "shred" || name == "wipefs" || name == "blkdiscard" || name == "fdisk" || name == "sfdisk" ||
		name == "parted" || name == "gdisk" || name == "sgdisk" || name == "cfdisk":
		for _, a := range operands(args[1:]) {
			if blockDevice(a) {
				return show(args) + " overwrites the disk " + a
			}
		}
	}
	for _, r := range c.Redirects {
		if strings.Contains(r.Op, ">") && blockDevice(r.Target) {
			return show(args) + " > " + r.Target + " overwrites the disk"
		}
	}
	return ""
}

func verb(name string) string {
	switch name {
	case "rm", "find":
		return "delete"
	case "mv":
		return "move"
	}
	return "change the permissions of"
}

// vital says why deleting p breaks the machine or loses the user's data,
// or "" when it does not. p is expanded; the project folder is never vital.
func vital(p, project string) string {
	if project != "" && project != "/" && project != home && under(p, clean(project)) {
		return ""
	}
	dir, file := path2(p)
	glob := file == "*" || file == ".*"
	if glob {
		p = dir
	}
	switch {
	case p == "/" || p == "":
		return "the root folder"
	case p == home:
		return "your home folder"
	case p == aboveHome:
		return "the folder that holds your home folder"
	case strings.HasPrefix(p, "~") && !strings.Contains(p, "/"):
		return "a home folder"
	case strings.HasPrefix(p, home+"/"):
		rest := strings.TrimPrefix(p, home+"/")
		if !strings.Contains(rest, "/") && !slices.Contains(homeSpare, rest) {
			return p + ", a folder of your home folder"
		}
	}
	for _, d := range systemDirs {
		if p == d {
			return "the system folder " + d
		}
		if rest, ok := strings.CutPrefix(p, d+"/"); ok && !strings.Contains(rest, "/") {
			return "the system folder " + p
		}
	}
	return ""
}

// path2 splits a path into its folder and last element.
func path2(p string) (string, string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	if i == 0 {
		return "/", p[1:]
	}
	return p[:i], p[i+1:]
}

func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// blockDevice reports whether a path names a disk or a partition.
func blockDevice(p string) bool {
	rest, ok := strings.CutPrefix(p, "/dev/")
	if !ok {
		return false
	}
	for _, d := range []string{"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/", "loop", "sr"} {
		if strings.HasPrefix(rest, d) {
			return true
		}
	}
	return false
}

// forkBomb finds a shell function that calls itself twice through a pipe
// in the background, as in :(){ :|:& };: — shellwords does not read
// function definitions, so the text is searched with the blanks removed.
func forkBomb(line string) bool {
	if !strings.Contains(line, "(") {
		return false
	}
	s := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' {
			return -1
		}
		return r
	}, line)
	for off := 0; ; {
		i := strings.Index(s[off:], "(){")
		if i < 0 {
			return false
		}
		i += off
		j := i
		for j > 0 && (s[j-1] == ':' || s[j-1] == '_' || s[j-1] == '.' || isAlnum(s[j-1])) {
			j--
		}
		name := s[j:i]
		body := s[i+3:]
		if name != "" && (strings.HasPrefix(body, name+"|"+name+"&") || strings.HasPrefix(body, name+"&"+name+"&")) {
			return true
		}
		off = i + 3
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
