package policy

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/shellcmd"
)

var hookTampering = &spec{
	Info: Info{
		Name:    "hookshim/hook-tampering",
		Summary: "deny the agent switching off the hooks that guard it: hookshim allow, deny, install and uninstall, hookshim's switches, its state and the tools' hook settings",
		Events:  toolEvents,
		Catches: "shell commands that run `hookshim allow`, `deny`, `install` or `uninstall` (not `--dry-run`, `--check` or `--help`), " +
			"also as a path (`~/go/bin/hookshim`), through `npx`, `pnpm dlx`, `bunx`, `yarn dlx`, `go run …/cmd/hookshim` and the wrappers the shell policies read; " +
			"commands run with a switch of hookshim's set (`HOOKSHIM_DISABLE=1 claude -p …`, `env HOOKSHIM_SKIP=x …`), " +
			"`export`, `declare`, `setenv`, fish's `set -x`, `setx`, `launchctl setenv` and `systemctl set-environment` of one, `unset` of one, " +
			"and a line that writes a file or runs an interpreter's inline code with one assigned in its text " +
			"(`echo 'export HOOKSHIM_DISABLE=1' >> .envrc`, `cat >> ~/.zshrc <<EOF`); the switches are `HOOKSHIM`, " +
			"`HOOKSHIM_DISABLE`, `HOOKSHIM_SKIP`, `HOOKSHIM_CONFIG`, `HOOKSHIM_TRUST_ALL`, `HOOKSHIM_ON_ERROR`, `HOOKSHIM_DEPTH` and `HOOKSHIM_GUARD`. " +
			"File tools and shell commands that write, edit, move, delete, link over or `chmod` (the writes outside-project reads) " +
			"a file a supported tool reads its hooks or its hooks switch from, in the project or the home folder " +
			"(`.claude/settings.json`, `.claude/settings.local.json`, `~/.gemini/settings.json`, `.codex/hooks.json`, `.codex/config.toml`, " +
			"`.cursor/hooks.json`, `.github/hooks/*.json`, `.kiro/hooks/*.json`, `.clinerules/hooks/`, `.opencode/plugins/hookshim.js`, " +
			"`hookshim providers` lists the tools; also where `CLAUDE_CONFIG_DIR`, `CODEX_HOME` and the like move them), " +
			"hookshim's own config and state (`~/.config/hookshim/`, `~/.local/state/hookshim/`: allowances and their copies; " +
			"`XDG_CONFIG_HOME` and `XDG_STATE_HOME` followed) and the hookshim program itself; deleting or moving a folder that holds one " +
			"(`rm -rf .claude`, `mv ~/.local/state …`), a glob that matches one there now (`rm .claude/*`, `rm -r .cla*`); a link to one, which is that file (writing through it, `ln -s` to it), and " +
			"`git checkout`, `restore`, `rm`, `mv` and `stash` of one (an older version may have no hooks); file tools that write a switch " +
			"assignment into any file but documentation (`HOOKSHIM_DISABLE=1` in `.envrc`, `\"HOOKSHIM_SKIP\": …` in a settings file). " +
			"An agent started with its hooks switched off (`claude --settings '{\"disableAllHooks\": true}' -p …`, " +
			"`codex -c features.codex_hooks=false exec …`, a `--settings` file that holds such a setting), and a line or a file tool " +
			"that writes such a setting anywhere but documentation (`\"disableAllHooks\": true`, `codex_hooks = false`, " +
			"`\"hooksConfig\": {\"enabled\": false}`: the settings `hookshim install` warns of, with the value that switches hooks off " +
			"within a few words). " +
			"An interpreter's inline code that names one of these files (`python3 -c \"open('.claude/settings.json', 'w')\"`) is unsure (ask). " +
			"Names are compared in any letter case. The project's `.openhook.json` is not guarded: a change to it runs only once you allow it.",
		Misses: "programs that change these files on their own (`git stash` and `git clean` without paths, `git apply`, an archive " +
			"extracted over them, a script, an editor started by the agent), paths known only at run time (`$DIR/settings.json`) or " +
			"built by code, hard links made before, a copy of the hookshim program run under another name, settings that leave hooks " +
			"out without switching them off (`claude --setting-sources user`, a tool's managed settings), and switches set in a way " +
			"it does not read as an assignment (a script that computes the name).",
		Params: []Param{
			{"allow", "array of globs", "files that may be written although they are guarded, e.g. `[\"**/.claude/settings.local.json\"]`; `**` spans folders, compared in any letter case"},
		},
		Denied: []Example{
			{Tool: event.ToolShell, Text: "hookshim allow"},
			{Tool: event.ToolShell, Text: "npx -y hookshim@latest uninstall --all"},
			{Tool: event.ToolShell, Text: "~/go/bin/hookshim deny /home/u/project/.openhook.json"},
			{Tool: event.ToolShell, Text: "HOOKSHIM_DISABLE=1 claude -p 'clean up the disk'"},
			{Tool: event.ToolShell, Text: "export HOOKSHIM_SKIP=destructive-shell"},
			{Tool: event.ToolShell, Text: "echo 'export HOOKSHIM_DISABLE=1' >> .envrc"},
			{Tool: event.ToolShell, Text: "rm .claude/settings.json"},
			{Tool: event.ToolShell, Text: "sed -i '/hookshim/d' ~/.gemini/settings.json"},
			{Tool: event.ToolShell, Text: "rm -rf ~/.local/state/hookshim"},
			{Tool: event.ToolShell, Text: "mv .cursor .cursor.off"},
			{Tool: event.ToolShell, Text: "ln -sf /dev/null .codex/hooks.json"},
			{Tool: event.ToolShell, Text: "git checkout HEAD~3 -- .claude/settings.json"},
			{Tool: event.ToolShell, Text: "claude --settings '{\"disableAllHooks\": true}' -p 'free some disk space'"},
			{Tool: event.ToolFileEdit, Text: ".claude/settings.json"},
			{Tool: event.ToolFileWrite, Text: "/home/u/.claude/settings.json"},
			{Tool: event.ToolFileWrite, Text: "/home/u/.config/hookshim/openhook.json"},
			{Tool: event.ToolFileWrite, Text: ".github/hooks/hookshim.json"},
			{Tool: event.ToolFileWrite, Text: ".Claude/Settings.Local.json"},
		},
		Allowed: []Example{
			{Tool: event.ToolShell, Text: "hookshim trust"},
			{Tool: event.ToolShell, Text: "hookshim install --all --dry-run"},
			{Tool: event.ToolShell, Text: "hookshim doctor && hookshim log --since 1h"},
			{Tool: event.ToolShell, Text: "cat .claude/settings.json"},
			{Tool: event.ToolShell, Text: "grep -rn HOOKSHIM_DISABLE docs/"},
			{Tool: event.ToolShell, Text: "echo HOOKSHIM_DISABLE"},
			{Tool: event.ToolShell, Text: "mkdir -p .claude/commands && cp review.md .claude/commands/"},
			{Tool: event.ToolShell, Text: "rm -rf ~/.cache/hookshim"},
			{Tool: event.ToolFileRead, Text: ".claude/settings.json"},
			{Tool: event.ToolFileEdit, Text: ".openhook.json"},
			{Tool: event.ToolFileWrite, Text: "src/settings.json"},
			{Tool: event.ToolFileWrite, Text: ".claude/agents/reviewer.md"},
			{Tool: event.ToolFileEdit, Text: ".claude/settings.local.json", With: `{"allow": ["**/.claude/settings.local.json"]}`},
		},
	},
	compile: func(p *params) (func(ev *event.Event) string, error) {
		allow := p.strs("allow")
		p.checkGlobs("allow", allow)
		for i, g := range allow {
			allow[i] = strings.ToLower(g)
		}
		ok := compileGlobs(allow)
		return func(ev *event.Event) string { return tampering(ev, guardedFiles, ok) }, nil
	},
}

// switches are the variables that change what hookshim runs or answers
// (internal/pipeline reads them): set by the agent for the agent that
// runs next, or written where the tool's next session reads them, they
// would switch the guard off.
var switches = []string{"HOOKSHIM", "HOOKSHIM_DISABLE", "HOOKSHIM_SKIP", "HOOKSHIM_CONFIG",
	"HOOKSHIM_TRUST_ALL", "HOOKSHIM_ON_ERROR", "HOOKSHIM_DEPTH", "HOOKSHIM_GUARD"}

// changing are hookshim's commands that change which configs run and
// where hookshim is registered.
var changing = []string{"allow", "deny", "install", "uninstall"}

// setters set, export or unset a variable named in their arguments
// (unset HOOKSHIM_ON_ERROR takes fail-closed from what the line starts).
var setters = []string{"export", "declare", "typeset", "local", "readonly", "setenv", "setx", "set", "unset", "unsetenv", "launchctl", "systemctl"}

// guard is one file (or folder) that decides which hooks run: its path
// below where its scope starts, split and in lower case (elements may be
// globs: `*.json`), with what it is, for a reason.
type guard struct {
	rel  []string
	what string
	tree bool // a folder: every file in it is guarded too
	// Where rel starts: in any folder (a project's files: anywhere, so
	// that another checkout's count too), in a home folder, or in root.
	anywhere, inHome bool
	root             []string
	ownRoot          bool // root is the file's own folder, which a variable names
}

// guards are the guarded files of this process: the tools' (from their
// install descriptions), hookshim's own config and state, the program.
type guards struct {
	list []guard
	home []string // $HOME, split and in lower case; nil when unset
	// names are the literal elements of the guards' paths (and the
	// folders variables name): a path none of whose elements is one is
	// guarded by none, which settles most words of a line at once.
	names map[string]bool
	// offs are the settings that switch a tool's hooks off (install's
	// Switches), for an agent the agent starts with its hooks off.
	offs []hooksOff
}

// hooksOff is a setting that switches a tool's hooks off: its key in
// lower case (features.codex_hooks), the part of it that names hooks
// alone (codex_hooks, disableallhooks, hooksconfig; "" when no part
// does: hooks.disabled), and the value that switches them off.
type hooksOff struct {
	key, word, value string
}

// guardedFiles are this process's guards, made on first use (a
// sync.Once, as for the secret patterns: nothing is built at start).
func guardedFiles() *guards {
	guardsOnce.Do(func() {
		exe, _ := os.Executable()
		processGuards = makeGuards(os.Getenv, exe)
	})
	return processGuards
}

var (
	guardsOnce    sync.Once
	processGuards *guards
)

// split is a slash path's elements in lower case: names are compared
// in any letter case, as macOS and Windows open them.
func split(p string) []string {
	return strings.Split(strings.ToLower(filepath.ToSlash(p)), "/")
}

// makeGuards lists the files that decide which hooks run: where each
// tool reads its hooks (install's targets, the files import reads, the
// files of its switches), hookshim's own config and state, and the
// program exe. getenv gives the folders that move them.
func makeGuards(getenv func(string) string, exe string) *guards {
	g := &guards{list: make([]guard, 0, 128)} // about 100 for the tools of today
	if h := getenv("HOME"); filepath.IsAbs(h) {
		g.home = split(strings.TrimSuffix(h, "/"))
	}
	add := func(gd guard, rel string) {
		gd.rel = split(strings.Trim(rel, "/"))
		g.list = append(g.list, gd)
	}
	// A user's file, in any home folder, and where a variable moves its
	// folder, when set.
	user := func(dir, file, env, sub, what string, tree bool) {
		add(guard{what: what, tree: tree, inHome: true}, dir+"/"+file)
		if d := getenv(env); env != "" && filepath.IsAbs(d) {
			add(guard{what: what, tree: tree, root: split(strings.TrimSuffix(d, "/")), ownRoot: true}, sub+"/"+file)
		}
	}
	for _, p := range provider.All {
		if p.Install == nil {
			continue
		}
		what := "where " + p.Name + " reads its hooks"
		target := func(t *provider.Target) {
			if t.File == "" {
				return // a note, not a file
			}
			tree := t.Format != nil && t.Format.Layout == provider.LayoutScriptPerEvent
			if t.Scope == provider.ScopeUser {
				user(t.Dir, t.File, t.DirEnv, t.DirSub, what, tree)
				if d := getenv("APPDATA"); t.AppData != "" && filepath.IsAbs(d) {
					add(guard{what: what, tree: tree, root: split(d)}, t.AppData+"/"+t.File)
				}
				return
			}
			add(guard{what: what, tree: tree, anywhere: true}, t.Dir+"/"+t.File)
			if t.AlsoRead != "" {
				add(guard{what: what, tree: true, anywhere: true}, t.AlsoRead)
			}
		}
		for i := range p.Install.Targets {
			target(&p.Install.Targets[i])
		}
		for i := range p.Install.Imports {
			target(&p.Install.Imports[i])
		}
		for i := range p.Install.Switches {
			sw := &p.Install.Switches[i]
			target(&sw.At)
			off := hooksOff{key: strings.ToLower(sw.Key), value: strings.ToLower(fmt.Sprint(sw.Off))}
			for _, part := range strings.Split(off.key, ".") {
				if strings.Contains(part, "hook") && part != "hooks" {
					off.word = part
				}
			}
			if !slices.Contains(g.offs, off) {
				g.offs = append(g.offs, off)
			}
		}
	}
	user(".config", "hookshim", "XDG_CONFIG_HOME", "", "hookshim's own config", true)
	user(".local/state", "hookshim", "XDG_STATE_HOME", "", "hookshim's allowances and state", true)
	if exe != "" {
		dir := split(filepath.Dir(exe))
		add(guard{what: "the hookshim program", root: dir}, filepath.Base(exe))
		add(guard{what: "the hookshim program", root: dir}, "hookshim-remote")
	}
	g.names = map[string]bool{}
	for _, gd := range g.list {
		literal := false
		for _, e := range gd.rel {
			if !strings.ContainsAny(e, "*?[\\") {
				g.names[e], literal = true, true
			}
		}
		if gd.ownRoot {
			g.names[gd.root[len(gd.root)-1]] = true
		}
		if !literal {
			g.names = nil // no way to tell this guard's paths apart: no filter
			break
		}
	}
	return g
}

// homeLen is how many elements of a path name a home folder: "~", the
// usual places of home folders (/home/NAME, /Users/NAME, /root, a
// drive's Users/NAME) and $HOME; 0 for none.
func (g *guards) homeLen(parts []string) int {
	if n := homeParts(parts); n > 0 {
		return n
	}
	if len(g.home) > 1 && len(parts) >= len(g.home) && slices.Equal(parts[:len(g.home)], g.home) {
		return len(g.home)
	}
	return 0
}

// find says what a path (as expand makes it) is guarded as, or "";
// above includes the folders that hold guarded files (deleting or moving
// one takes the file along): from the first element of a project's
// file's folder, or the home folder's first, or the folder a variable
// names.
func (g *guards) find(p string, above bool) string {
	parts := split(p)
	if g.names != nil && !slices.ContainsFunc(parts, func(e string) bool { return g.names[e] }) {
		return ""
	}
	h := g.homeLen(parts)
	for _, gd := range g.list {
		var rest []string // the path below where the guard's scope starts
		switch {
		case gd.anywhere:
			// rel at the path's end (or, for a folder, ending anywhere
			// in it); a folder above: the path ends in rel's start.
			for i := len(parts) - 1; i >= 0; i-- {
				if n := len(parts) - i; n <= len(gd.rel) && elems(gd.rel[:n], parts[i:]) {
					if n == len(gd.rel) || above {
						return gd.what
					}
				}
				if gd.tree && i+len(gd.rel) < len(parts) && elems(gd.rel, parts[i:i+len(gd.rel)]) {
					return gd.what
				}
			}
			continue
		case gd.inHome:
			if h == 0 {
				continue
			}
			rest = parts[h:]
		default:
			if len(parts) < len(gd.root) || !slices.Equal(parts[:len(gd.root)], gd.root) {
				continue
			}
			rest = parts[len(gd.root):]
		}
		switch {
		case len(rest) >= len(gd.rel) && elems(gd.rel, rest[:len(gd.rel)]) && (len(rest) == len(gd.rel) || gd.tree):
			return gd.what
		case above && len(rest) < len(gd.rel) && (len(rest) > 0 || gd.ownRoot) && elems(gd.rel[:len(rest)], rest):
			return gd.what
		}
	}
	return ""
}

// elems reports whether path elements match a guard's, which may be
// globs (`*.json`).
func elems(pat, parts []string) bool {
	for i, e := range pat {
		if e != parts[i] && !segment(e, parts[i]) {
			return false
		}
	}
	return true
}

// tampering is the policy's finding for one event; guarded gives the
// guarded files, made only when a call writes something.
func tampering(ev *event.Event, guarded func() *guards, allow globs) string {
	if ev.Tool == nil {
		return ""
	}
	cwd := ev.Cwd
	if cwd == "" {
		cwd = ev.ProjectDir
	}
	globBudget := maxGlobEntries
	check := func(p, dir string, above bool) string {
		if strings.HasPrefix(p, "container:") {
			return "" // a container's own file (onHost)
		}
		p = expand(strings.ReplaceAll(p, `\`, "/"), dir)
		if p == "" || allow.match(strings.ToLower(p)) {
			return ""
		}
		if strings.ContainsAny(p, "*?[") {
			// A glob names the files it matches when it runs: those
			// there now (`rm .claude/*`, `rm -r .cla*`).
			for _, m := range globFiles(p, &globBudget) {
				if what := guarded().find(m, above); what != "" {
					return what
				}
			}
			return ""
		}
		if what := guarded().find(p, above); what != "" {
			return what
		}
		// A link to a guarded file is that file: writing through it
		// writes the file (a link made before, in the project or not).
		if real := resolved(p); real != "" && !allow.match(strings.ToLower(real)) {
			return guarded().find(real, above)
		}
		return ""
	}
	switch ev.Tool.Name {
	case event.ToolFileWrite, event.ToolFileEdit:
		paths := filePaths(ev)
		for _, p := range paths {
			if what := check(p, cwd, false); what != "" {
				return "writing " + p + " changes " + what + ": only the user may change it"
			}
		}
		// The texts written are the call's, the same for each of its
		// files: read once, for the first file that is not documentation.
		i := slices.IndexFunc(paths, func(p string) bool { return !documentation(p) })
		if i < 0 {
			return ""
		}
		texts := writtenTexts(ev.Tool.Input)
		if name := assignsSwitch(texts...); name != "" {
			return "writing " + paths[i] + " sets " + name + ", which changes what hookshim runs: only the user may set it"
		}
		for _, t := range texts {
			if key := guarded().switchesOff(t); key != "" {
				return "writing " + paths[i] + " sets " + key + ", which switches a tool's hooks off: only the user may set it"
			}
		}
		return ""
	}
	runs := shellOf(ev)
	writesAny := false
	for _, r := range runs {
		c := r.cmd
		if sub := hookshimRun(c); sub == "?" {
			return unsure + showCmd(c) + " runs hookshim with a subcommand known only when it runs; check it by hand"
		} else if sub != "" {
			return showCmd(c) + " changes which hooks run (hookshim " + sub + "): only the user may run it"
		}
		if name := setSwitch(c); name != "" {
			said := showCmd(c)
			if len(c.Env) > 0 {
				said = shown(strings.Join(slices.Concat(c.Env, c.Args), " "))
			}
			return said + " sets " + name + ", which changes what hookshim runs: only the user may set it"
		}
		if key := agentHooksOff(c, r.cwd, guarded); key != "" {
			return showCmd(c) + " starts an agent with its hooks switched off (" + key + "): only the user may switch them off"
		}
		above := slices.Contains([]string{"rm", "rmdir", "mv", "unlink", "shred"}, c.Name())
		for _, w := range slices.Concat(writes(c), linked(c), restored(c)) {
			if what := check(w, r.cwd, above); what != "" {
				return showCmd(c) + " changes " + expand(w, r.cwd) + ", " + what + ": only the user may change it"
			}
			writesAny = writesAny || !specialFile(w)
		}
		for _, src := range inlineCode(c) {
			writesAny = true // code may write files, or set a switch for what it runs
			for _, lit := range literals(src) {
				if what := check(lit, r.cwd, false); what != "" {
					return unsure + showCmd(c) + " runs code that names " + lit + ", " + what + "; check it by hand"
				}
			}
		}
	}
	if writesAny {
		if name := assignsSwitch(ev.Tool.Command); name != "" {
			return shown(ev.Tool.Command) + " writes " + name + ", which changes what hookshim runs: only the user may set it"
		}
		if key := guarded().switchesOff(ev.Tool.Command); key != "" {
			return shown(ev.Tool.Command) + " writes " + key + ", which switches a tool's hooks off: only the user may set it"
		}
	}
	return ""
}

// agentHooksOff is the setting a command that starts an agent gives it
// to switch its hooks off (`claude --settings '{"disableAllHooks":
// true}'`, `codex -c features.codex_hooks=false`, a settings file that
// holds one), or "".
func agentHooksOff(c shellcmd.Command, dir string, guarded func() *guards) string {
	if !isAgent(c.Name()) {
		return ""
	}
	g := guarded()
	for i, a := range c.Args[1:] {
		lower := strings.ToLower(a)
		for _, off := range g.offs {
			if strings.Contains(lower, off.key) || off.word != "" && strings.Contains(lower, off.word) {
				return off.key
			}
		}
		if a == "--settings" && i+2 < len(c.Args) {
			if text, err := readHead(expand(c.Args[i+2], dir), 64<<10); err == nil {
				if key := g.switchesOff(text); key != "" {
					return key
				}
			}
		}
	}
	return ""
}

// isAgent reports whether a program is one of the tools' (install's
// Binaries: claude, codex, gemini, …), read from the table as it is, so
// that a call that starts none builds nothing.
func isAgent(name string) bool {
	for _, p := range provider.All {
		if p.Install != nil && slices.Contains(p.Install.Binaries, name) {
			return true
		}
	}
	return false
}

// switchesOff is the setting a text turns a tool's hooks off with, or
// "": the part of its key that names hooks, followed within a few words
// by the value that switches them off (`"disableAllHooks": true`,
// `codex_hooks = false`, `"hooksConfig": {"enabled": false}`).
func (g *guards) switchesOff(text string) string {
	lower := strings.ToLower(text)
	for _, off := range g.offs {
		if off.word == "" {
			continue
		}
		for at := 0; ; {
			i := strings.Index(lower[at:], off.word)
			if i < 0 {
				break
			}
			at += i + len(off.word)
			near := lower[at:min(len(lower), at+40)]
			if j := strings.Index(near, off.value); j >= 0 && !wordByte(near, j-1) && !wordByte(near, j+len(off.value)) {
				return off.key
			}
		}
	}
	return ""
}

// maxGlobEntries bounds the folder entries globFiles reads for one
// call's globs: a glob over a huge tree, or a line of many globs, is read
// that far, no further.
const maxGlobEntries = 8192

// globFiles are the files an absolute glob matches now, as bash matches
// it: element by element, a leading dot only by a leading dot; it reads
// at most *budget folder entries, and counts them off. A relative glob
// (its folder unknown) or ~ matches nothing here.
func globFiles(p string, budget *int) []string {
	if !strings.HasPrefix(p, "/") {
		return nil
	}
	dirs := []string{"/"}
	for _, elem := range strings.Split(strings.Trim(p, "/"), "/") {
		var next []string
		for _, d := range dirs {
			if !strings.ContainsAny(elem, "*?[") {
				next = append(next, path.Join(d, elem))
				continue
			}
			entries, err := os.ReadDir(d)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if *budget--; *budget < 0 {
					return next
				}
				name := e.Name()
				if strings.HasPrefix(name, ".") && !strings.HasPrefix(elem, ".") {
					continue
				}
				if ok, _ := path.Match(elem, name); ok {
					next = append(next, path.Join(d, name))
				}
			}
		}
		dirs = next
	}
	return dirs
}

// resolved is the file a path (as expand makes it) names once its links
// are followed, when it is absolute, exists and is reached through one;
// else "".
func resolved(p string) string {
	if !filepath.IsAbs(p) {
		return ""
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil || real == p {
		return ""
	}
	return filepath.ToSlash(real)
}

// linked are the files ln links to (all its operands but the last): a
// link made to a guarded file is a way to write it under another name.
func linked(c shellcmd.Command) []string {
	if c.Name() != "ln" || len(c.Args) < 3 {
		return nil
	}
	args := c.Args[1:]
	ops := operandsSkipping(args, "-t", "--target-directory", "-S", "--suffix")
	if slices.ContainsFunc(args, func(a string) bool {
		return a == "-t" || a == "--target-directory" || strings.HasPrefix(a, "--target-directory=")
	}) {
		return ops // the folder comes with -t: every operand is linked to
	}
	if len(ops) < 2 {
		return nil
	}
	return ops[:len(ops)-1]
}

// restored are the files a git command puts back as another revision
// has them, or removes: the paths of checkout, restore, rm, mv and stash
// (push), which can take a registration back to before it was made.
func restored(c shellcmd.Command) []string {
	sub, args := gitArgs(c)
	switch sub {
	case "checkout", "restore", "rm", "mv", "stash":
		return operands(args)
	}
	return nil
}

// hookshimRun is the subcommand of a command that runs hookshim with one
// of the changing subcommands, or "".
func hookshimRun(c shellcmd.Command) string {
	args := c.Args
	at := -1
	switch name := strings.TrimSuffix(strings.ToLower(c.Name()), ".exe"); {
	case name == "hookshim" || len(c.Dynamic) > 0 && c.Dynamic[0] && strings.Contains(strings.ToLower(args[0]), "hookshim"):
		at = 0
	case name == "npx" || name == "pnpx" || name == "bunx":
		at = packageAt(args, 1)
	case (name == "npm" || name == "pnpm" || name == "yarn" || name == "bun") && len(args) > 1 &&
		slices.Contains([]string{"exec", "x", "dlx"}, args[1]):
		at = packageAt(args, 2)
	case name == "go" && len(args) > 2 && args[1] == "run":
		for i, a := range args[2:] {
			pkg, _, _ := strings.Cut(a, "@")
			if !strings.HasPrefix(a, "-") && (pkg == "cmd/hookshim" || strings.HasSuffix(pkg, "/cmd/hookshim")) {
				at = i + 2
				break
			}
		}
	}
	if at < 0 {
		return ""
	}
	if at == len(args)-1 && (slices.Contains(c.Via, "xargs") || slices.Contains(c.Via, "parallel")) {
		return "?" // its subcommand comes from its input
	}
	sub := ""
	for _, a := range args[at+1:] {
		switch {
		case a == "--dry-run" || a == "--check" || a == "-h" || a == "--help" || a == "-help":
			return ""
		case sub == "" && !strings.HasPrefix(a, "-"):
			sub = a
		}
	}
	if slices.Contains(changing, sub) {
		return sub
	}
	return ""
}

// packageAt is the index of the hookshim package in a package runner's
// words from i (`npx -y hookshim@1.2 allow`), or -1.
func packageAt(args []string, i int) int {
	for ; i < len(args); i++ {
		a := args[i]
		if a == "-p" || a == "--package" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		pkg := strings.TrimPrefix(strings.ToLower(a), "@hookshim/")
		if name, _, _ := strings.Cut(pkg, "@"); name == "hookshim" {
			return i
		}
		return -1
	}
	return -1
}

// setSwitch is the switch a command sets for what it runs (NAME=value in
// front, env NAME=value) or exports, sets or stores (export NAME=…,
// set -x NAME, setx NAME …), or "".
func setSwitch(c shellcmd.Command) string {
	for _, e := range c.Env {
		if name, _, _ := strings.Cut(e, "="); slices.Contains(switches, name) {
			return name
		}
	}
	if !slices.Contains(setters, c.Name()) {
		return ""
	}
	for _, a := range c.Args[1:] {
		name, _, _ := strings.Cut(a, "=")
		if slices.Contains(switches, name) {
			return name
		}
	}
	return ""
}

// assignsSwitch is the first switch one of the texts assigns, or "": the
// name as a word, followed by "=" or ":" (quotes, "]" and spaces between
// allowed: `HOOKSHIM_DISABLE=1`, `"HOOKSHIM_SKIP": "x"`,
// `environ["HOOKSHIM"] = "0"`), or after a word that sets a variable
// (`setenv HOOKSHIM_DISABLE 1`, `set -gx HOOKSHIM_DISABLE 1`, `ENV
// HOOKSHIM_DISABLE=1`).
func assignsSwitch(texts ...string) string {
	for _, t := range texts {
		for i := strings.Index(t, "HOOKSHIM"); i >= 0; {
			end := i + len("HOOKSHIM")
			for end < len(t) && (t[end] == '_' || t[end] >= 'A' && t[end] <= 'Z') {
				end++
			}
			name := t[i:end]
			if slices.Contains(switches, name) && !wordByte(t, i-1) && !wordByte(t, end) && (assignedAfter(t[end:]) || setBefore(t, i)) {
				return name
			}
			next := strings.Index(t[end:], "HOOKSHIM")
			if next < 0 {
				break
			}
			i = end + next
		}
	}
	return ""
}

// wordByte reports whether t[i] is part of a word (a letter, digit or _).
func wordByte(t string, i int) bool {
	if i < 0 || i >= len(t) {
		return false
	}
	b := t[i]
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// assignedAfter reports whether what follows a name assigns it.
func assignedAfter(rest string) bool {
	rest = strings.TrimLeft(rest, "\"'`] \t")
	return strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") || strings.HasPrefix(rest, ":")
}

// setBefore reports whether the word before t[i:] sets what follows it.
// It reads back over that word only, so that a text of many names is
// read in linear time.
func setBefore(t string, i int) bool {
	end := i
	for end > 0 && (t[end-1] == ' ' || t[end-1] == '\t') {
		end--
	}
	start := end
	for start > 0 && t[start-1] != ' ' && t[start-1] != '\t' && t[start-1] != '\n' {
		start--
	}
	switch strings.TrimLeft(t[start:end], "\"'") {
	case "export", "setenv", "setx", "ENV", "-x", "-gx", "-Ux", "-xg", "-xU", "--export", "set-environment":
		return true
	}
	return false
}

// documentation reports whether a file is documentation, which shows a
// switch without setting it.
func documentation(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".md", ".markdown", ".mdx", ".rst", ".txt", ".adoc", ".html":
		return true
	}
	return false
}
