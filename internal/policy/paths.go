package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/shellcmd"
	"github.com/tidwall/gjson"
)

// Paths are compared in shell (slash) form: commands name them so, and
// the tools send them so on every system hookshim is tested on.

// home is how a path in the user's home is written after expand: the
// policies do not know $HOME (the event does not carry it), so ~, $HOME
// and ${HOME} all read "~".
const home = "~"

// aboveHome stands for a path that climbs out of the home folder (~/..):
// where it lands is not known, only that it holds the home folder.
const aboveHome = "~/.."

// expand rewrites a path's home prefix to "~" and resolves it against cwd
// when relative (cwd "" leaves it relative). Other variables are left as
// they are: the result then starts with "$".
func expand(p, cwd string) string {
	for _, h := range []string{"$HOME", "~"} {
		if p == h {
			return home
		}
		if rest, ok := strings.CutPrefix(p, h+"/"); ok {
			if c := clean(home + "/" + rest); c == home || strings.HasPrefix(c, home+"/") {
				return c
			}
			return aboveHome // ~/.. and the like
		}
	}
	if strings.HasPrefix(p, "~") {
		// ~user: another user's home, outside the project all the same.
		return clean(p)
	}
	if strings.HasPrefix(p, "$") || strings.HasPrefix(p, "/") || cwd == "" {
		return clean(p)
	}
	return clean(cwd + "/" + p)
}

// clean is path.Clean that keeps "~" and a leading "$VAR" as they are.
func clean(p string) string {
	if p == "" {
		return p
	}
	return path.Clean(p)
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	if dir == "" {
		return false
	}
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// globs are patterns whose segments are path.Match patterns, with "**"
// for any number of segments; "~/x" and "$HOME/x" read as in a path. They
// are split once, when the policy is compiled.
type globs []globPat

type globPat struct {
	src   string
	parts []string
}

func compileGlobs(patterns []string) globs {
	g := make(globs, len(patterns))
	for i, p := range patterns {
		if strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") || strings.Contains(p, "//") || strings.Contains(p, "/.") || strings.HasSuffix(p, "/") {
			p = expand(p, "")
		}
		g[i] = globPat{src: patterns[i], parts: strings.Split(p, "/")}
	}
	return g
}

// match reports whether the whole slash path p matches one of the
// patterns.
func (g globs) match(p string) bool {
	if len(g) == 0 {
		return false
	}
	parts := strings.Split(p, "/")
	for _, pat := range g {
		if globParts(pat.parts, parts, 0) {
			return true
		}
	}
	return false
}

// matchTail reports whether the end of a path, split at "/", matches one
// of the patterns (as many elements as the pattern has).
func (g globs) matchTail(parts []string) bool {
	for _, pat := range g {
		if n := len(pat.parts); n <= len(parts) && globParts(pat.parts, parts[len(parts)-n:], 0) {
			return true
		}
	}
	return false
}

// segment matches one path element against one pattern element; the
// literal start and end of the pattern are compared first, which settles
// most elements without path.Match.
func segment(pat, s string) bool {
	i := strings.IndexAny(pat, "*?[\\")
	if i < 0 {
		return false // a literal, and not equal
	}
	j := strings.LastIndexAny(pat, "*?]\\")
	if !strings.HasPrefix(s, pat[:i]) || !strings.HasSuffix(s, pat[j+1:]) {
		return false
	}
	ok, _ := path.Match(pat, s)
	return ok
}

func globParts(pat, parts []string, depth int) bool {
	if depth > 16 {
		return false // a pattern with many ** segments: no match rather than a long search
	}
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(parts); i++ {
				if globParts(pat[1:], parts[i:], depth+1) {
					return true
				}
			}
			return false
		}
		if len(parts) == 0 {
			return false
		}
		if pat[0] != parts[0] && !segment(pat[0], parts[0]) {
			return false
		}
		pat, parts = pat[1:], parts[1:]
	}
	return len(parts) == 0
}

// checkGlobs reports a pattern path.Match cannot read.
func (p *params) checkGlobs(key string, patterns []string) {
	for _, g := range patterns {
		for _, seg := range strings.Split(g, "/") {
			if _, err := path.Match(seg, ""); err != nil {
				p.fail(p.at(key), "pattern "+quote(g)+" is not a glob: "+err.Error())
				return
			}
		}
	}
}

func quote(s string) string { return "\"" + s + "\"" }

// shellRun is one simple command of a shell tool call, with the folder it
// runs in: the call's, or where the line moved it (cd, env -C, …), as
// internal/shellcmd follows it; "" when that is known only at run time.
type shellRun struct {
	cmd shellcmd.Command
	cwd string
}

// shellOf reads the command line of a shell tool call: its simple
// commands, each with its folder. A line not read to its end is answered
// by Policy.Eval for every shell policy, so the policies need not know.
func shellOf(ev *event.Event) []shellRun {
	if ev.Tool == nil || ev.Tool.Name != event.ToolShell || ev.Tool.Command == "" {
		return nil
	}
	cmds, _ := ev.Shell.Read(ev.Tool.Shell, ev.Tool.Command, ev.Cwd)
	start := ev.Cwd
	if start == "" {
		start = ev.ProjectDir
	}
	if winDrive(start) {
		start = strings.ReplaceAll(start, `\`, "/")
	}
	runs := make([]shellRun, 0, len(cmds))
	for _, c := range cmds {
		if c.Container != nil {
			runs = append(runs, shellRun{onHost(c, start), start})
			continue
		}
		cwd := start
		switch {
		case c.DirUnknown:
			cwd = ""
		case winDrive(c.Dir):
			cwd = c.Dir // PowerShell's Set-Location to a drive
		case c.Dir != "":
			if cwd = expand(c.Dir, start); strings.HasPrefix(cwd, "$") {
				cwd = ""
			}
		}
		runs = append(runs, shellRun{c, cwd})
	}
	return runs
}

// onHost is a command run in a container as this machine sees it: its
// paths under a folder bound from this machine are that folder's, the
// container's own paths, which no policy here guards, read "container:…"
// (a relative path, inside the project wherever it is joined).
func onHost(c shellcmd.Command, start string) shellcmd.Command {
	box := c.Container
	dir := c.Dir
	if c.DirUnknown {
		dir = ""
	}
	host := func(a string) string {
		var p string
		switch {
		case a == "" || strings.HasPrefix(a, "-") || !strings.ContainsAny(a, "/~$*?[") && a != "." && a != ".." ||
			strings.Contains(a, "://") || strings.Contains(a, "="):
			// An option, a word that may be a name (a branch, a package)
			// as well as a file, a URL, an assignment: as written, which
			// no policy here reads as a folder it guards.
			return a
		case strings.HasPrefix(a, "/"):
			p = path.Clean(a)
		case strings.HasPrefix(a, "~") || strings.HasPrefix(a, "$") || dir == "":
			return "container:" + a // the container's home, a variable of its own
		default:
			p = path.Join(dir, a)
		}
		best := -1
		for i, m := range box.Mounts {
			t := m.Target
			if (p == t || t == "/" || strings.HasPrefix(p, t+"/")) && (best < 0 || len(t) > len(box.Mounts[best].Target)) {
				best = i
			}
		}
		if best < 0 {
			return "container:" + p
		}
		m := box.Mounts[best]
		rest := strings.TrimPrefix(p, m.Target)
		return clean(expand(m.Host, start) + "/" + strings.TrimPrefix(rest, "/"))
	}
	out := c
	out.Container, out.Dir, out.DirUnknown = nil, "", false
	if out.Text == "" {
		// The command as the container runs it, then as read here.
		words := c.Args
		for _, r := range c.Redirects {
			words = append(words[:len(words):len(words)], r.Op+r.Target)
		}
		out.Text = strings.Join(words, " ")
	}
	out.Args = slices.Clone(c.Args)
	out.Unset = slices.Clone(c.Unset)
	for i := 1; i < len(out.Args); i++ {
		out.Args[i], out.Unset[i] = host(c.Args[i]), host(c.Unset[i])
	}
	out.Redirects = slices.Clone(c.Redirects)
	for i := range out.Redirects {
		out.Redirects[i].Target = host(c.Redirects[i].Target)
	}
	return out
}

// operands drops the options of a command's arguments (up to "--").
func operands(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if len(a) > 1 && a[0] == '-' {
			continue
		}
		out = append(out, a)
	}
	return out
}

// flags collects the letters of short options and the long options of a
// command's arguments (up to "--").
func flags(args []string) (short string, long []string) {
	for _, a := range args {
		if a == "--" {
			break
		}
		switch {
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			long = append(long, name)
		case len(a) > 1 && a[0] == '-':
			short += a[1:]
		}
	}
	return short, long
}

// filePaths are the paths a file tool call names: file_path and, for tools
// that touch several files in one call, the file_paths field.
func filePaths(ev *event.Event) []string {
	if ev.Tool == nil {
		return nil
	}
	var out []string
	if ev.Tool.FilePath != "" {
		out = append(out, ev.Tool.FilePath)
	}
	if list := ev.Get("file_paths"); list != nil {
		gjson.ParseBytes(list).ForEach(func(_, v gjson.Result) bool {
			if v.Type == gjson.String && v.Str != "" && v.Str != ev.Tool.FilePath {
				out = append(out, v.Str)
			}
			return true
		})
	}
	return out
}

// writer says whether a shell command writes, moves or deletes files:
// "all" of its operands, the "last", or "" (not a writer). A switch, not
// a map: a map literal is built when the process starts, which every hook
// call is.
func writer(name string) string {
	switch name {
	case "rm", "rmdir", "unlink", "shred", "touch", "mkdir", "tee", "sponge", "truncate", "mv":
		return "all"
	case "cp", "install", "ln", "rsync", "scp":
		return "last"
	}
	return ""
}

// writes lists the files a simple command writes, as written: redirection
// targets (not file descriptors), dd's of=, and the operands of writers (writer).
func writes(c shellcmd.Command) []string {
	var out []string
	for _, r := range c.Redirects {
		if !strings.Contains(r.Op, ">") || strings.HasSuffix(r.Op, "&") && isFD(r.Target) {
			continue
		}
		out = append(out, r.Target)
	}
	name := c.Name()
	if name == "find" {
		// -fprint FILE, -fprint0 FILE, -fls FILE and -fprintf FILE FORMAT
		// write the list of what was found to FILE.
		for i := 1; i+1 < len(c.Args); i++ {
			switch c.Args[i] {
			case "-fprint", "-fprint0", "-fls", "-fprintf":
				out = append(out, c.Args[i+1])
			}
		}
		return out
	}
	if name == "dd" {
		for _, a := range c.Args[1:] {
			if of, ok := strings.CutPrefix(a, "of="); ok {
				out = append(out, of)
			}
		}
		return out
	}
	if len(c.Args) == 0 {
		return out // only redirections: `<0`, `> f`
	}
	if changed, ok := changes(name, c.Args[1:]); ok {
		return append(out, changed...)
	}
	mode := writer(name)
	if mode == "" || len(c.Args) < 2 {
		return out
	}
	args := c.Args[1:]
	// -t DIR / --target-directory=DIR names the destination up front.
	for i, a := range args {
		if (a == "-t" || a == "--target-directory") && i+1 < len(args) {
			return append(out, args[i+1])
		}
		if d, ok := strings.CutPrefix(a, "--target-directory="); ok {
			return append(out, d)
		}
	}
	ops := operands(args)
	if name == "truncate" {
		ops = operandsSkipping(args, "-s", "--size", "-r", "--reference")
	}
	if mode == "last" && len(ops) > 0 {
		ops = ops[len(ops)-1:]
	}
	return append(out, ops...)
}

// changes lists the files a command changes in place, when it is one
// that does: sed and perl with -i (the files after the script), chmod,
// chown and chgrp (the files after the mode, owner or group; all of them
// with --reference=FILE).
func changes(name string, args []string) ([]string, bool) {
	switch name {
	case "sed", "perl":
		var ops []string
		inPlace, script := false, false
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "--":
				ops = append(ops, args[i+1:]...)
				i = len(args)
			case a == "--in-place" || strings.HasPrefix(a, "--in-place="):
				inPlace = true
			case a == "--expression" || a == "--file" || a == "--line-length":
				script = script || a != "--line-length"
				i++
			case strings.HasPrefix(a, "--"):
				script = script || strings.HasPrefix(a, "--expression=") || strings.HasPrefix(a, "--file=")
			case len(a) > 1 && a[0] == '-':
				// A cluster of letters, the last of which may take a value,
				// attached or in the next word: sed -ne 'p', -i.bak (-i's
				// suffix is attached; BSD sed's -i '' is a word of its own),
				// perl -pi -e, -pie (e is -i's suffix), -Ilib.
				i, inPlace, script = cluster(name, args, i, inPlace, script)
			default:
				ops = append(ops, a)
			}
		}
		if !inPlace {
			return nil, false
		}
		if !script && len(ops) > 0 {
			ops = ops[1:] // the script, or perl's program file
		}
		return ops, true
	case "chmod", "chown", "chgrp":
		ops := operands(args)
		for _, a := range args {
			if strings.HasPrefix(a, "--reference=") {
				return ops, true
			}
			if name == "chmod" && len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "rwxXst") == "" && a != "-R" {
				return ops, true // the mode was -x: no operand is
			}
		}
		if len(ops) > 0 {
			ops = ops[1:]
		}
		return ops, true
	}
	return nil, false
}

// cluster reads the option cluster args[i] of sed or perl: whether it
// edits in place or gives the script, and the index of the last word it
// takes.
func cluster(name string, args []string, i int, inPlace, script bool) (int, bool, bool) {
	a := args[i]
	for k := 1; k < len(a); k++ {
		c := a[k]
		switch {
		case c == 'i' || c == 'I' && name == "sed":
			// The rest is the backup suffix.
			if name == "sed" && a == "-i" && i+1 < len(args) && args[i+1] == "" {
				i++
			}
			return i, true, script
		case c == 'e' || c == 'E' && name == "perl" || c == 'f' && name == "sed" || c == 'l' && name == "sed":
			if k == len(a)-1 {
				i++ // the value is the next word
			}
			return i, inPlace, script || c != 'l'
		case name == "perl" && strings.IndexByte("IMmx0lFCdD", c) >= 0:
			return i, inPlace, script // the rest is the value
		}
	}
	return i, inPlace, script
}

// operandsSkipping is operands for a command whose named options take a
// value in the next word.
func operandsSkipping(args []string, withValue ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i+1:]...)
		case slices.Contains(withValue, a):
			i++
		case len(a) > 1 && a[0] == '-':
		default:
			out = append(out, a)
		}
	}
	return out
}

func isFD(s string) bool {
	if s == "-" {
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// specialFiles are written without harm from anywhere.
func specialFile(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/")
}

// showCmd is said for a command with its redirections (a PowerShell
// command's text holds them as written).
func showCmd(c shellcmd.Command) string {
	if c.Text != "" {
		return said(c)
	}
	args := c.Args
	for _, r := range c.Redirects {
		args = append(args[:len(args):len(args)], r.Op+r.Target)
	}
	return shown(strings.Join(args, " "))
}

// said is a command for a reason, as the agent wrote it: a PowerShell
// command is quoted as written, and as read when the reading differs
// (`Remove-Item -Recurse -Force C:\` (read as `rm -r -f -- C:/`)), so
// that the user finds in the reason the command the tool shows them. The
// text's spaces and line breaks are one space: a reason is one line.
func said(c shellcmd.Command) string {
	read := strings.Join(c.Args, " ")
	text := strings.Join(strings.Fields(c.Text), " ")
	if text == "" || text == read {
		return shown(read)
	}
	return shown(text) + " (read as " + shown(read) + ")"
}

// shown is a command's text in backquotes, shortened for a reason.
func shown(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return "`" + strings.ToValidUTF8(s, "?") + "`"
}

// homeParts is how many leading elements of a path (split at "/", in
// lower case) name a home folder by its form: "~" (what expand makes of
// $HOME), /home/NAME, /users/NAME, /var/home/NAME, /root, a drive's
// users/NAME; 0 for none.
func homeParts(parts []string) int {
	n := 0
	switch {
	case parts[0] == home:
		return 1
	case len(parts) > 2 && parts[0] == "" && (parts[1] == "home" || parts[1] == "users"):
		n = 3
	case len(parts) > 3 && parts[0] == "" && parts[1] == "var" && parts[2] == "home":
		n = 4
	case len(parts) > 1 && parts[0] == "" && parts[1] == "root":
		return 2
	case len(parts) > 2 && len(parts[0]) == 2 && parts[0][1] == ':' && parts[1] == "users":
		n = 3
	}
	if n > 0 && parts[n-1] == "" {
		return 0 // /home/ names no one's
	}
	return n
}

// isHome reports whether a path, as expand makes it and in lower case,
// is a home folder (homeParts).
func isHome(p string) bool {
	parts := strings.Split(p, "/")
	n := homeParts(parts)
	return n > 0 && n == len(parts)
}
