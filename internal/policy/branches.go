package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/shellcmd"
)

// defaultBranches are the branches protected when "branches" is not given:
// the names hosting services and the common workflows give the branches a
// team shares.
var defaultBranches = []string{"main", "master", "trunk", "develop", "production", "release/*"}

var protectedBranches = &spec{
	Info: Info{
		Name:    "hookshim/protected-branches",
		Summary: "deny force-pushes to, remote deletes of, and hard resets on protected branches",
		Events:  toolEvents,
		Catches: "every `git push` that can rewrite or delete a protected branch on the remote: " +
			"`-f`/`--force` (also bundled, `-uf`), `--force-with-lease` or a `+` refspec " +
			"whose destination is a protected branch (`main`, `HEAD:main`, `+main`, `refs/heads/main`); " +
			"`--delete`/`-d main`, `:main`; pushes that reach every branch of the remote: `--mirror`, `--all --force`, " +
			"`--prune` (deletes the remote branches that are not local), a forced `:` or wildcard refspec (`+refs/heads/*:refs/heads/*`) " +
			"whose pattern can match a protected branch; a forced push with no refspec while the current branch is protected " +
			"(read from the repository's HEAD at the folder git runs in, following `cd`, `git -C`, `--git-dir` and `git checkout`/`git switch` " +
			"earlier in the line; when it cannot be read, or the destination is a variable, the answer is ask). " +
			"Long options may be abbreviated as git allows (`--mirr`, `--force-w`, `--del`). " +
			"`git -C dir`, `-c name=value` and git's other options before the subcommand are read through, and `-c` settings " +
			"that change what a push does (`remote.*.push`, `remote.*.mirror`, `push.default`) are taken into account; " +
			"a subcommand known only when the line runs (`git $cmd`), an alias defined on the line (`git -c alias.p='push -f' p`) " +
			"and a forced push or a delete that takes more refspecs from `xargs` are answered with ask. " +
			"Also `git reset --hard` (or `--merge`) while on a protected branch. Wrapped commands count; " +
			"a line that cannot be read to its end is answered with ask, as by every shell policy.",
		Misses: "aliases and settings from git's configuration files (`git pf`, `push.default = upstream` with another branch name, " +
			"`remote.origin.mirror = true`), scripts (`./release.sh`), options held in variables the line does not set (`git push $FLAGS origin main`), " +
			"a refspec held in a variable on a push that is not forced, pushes through other programs (`gh api`, the hosting service's web page). " +
			"Local branch changes are left to `hookshim/git-discard` (`git branch -D main`) or not reported (`git branch -f main x`, " +
			"`git checkout -B main`, `git update-ref refs/heads/main x`): the remote only changes with a push, and a push that " +
			"rewrites a protected branch needs one of the forms above. A `git reset --hard` whose current branch cannot be read is " +
			"not reported here (resets are common on any branch; `hookshim/git-discard` reports every one).",
		Params: []Param{{"branches", "array of globs", "the protected branches (default `[\"main\", \"master\", \"trunk\", \"develop\", \"production\", \"release/*\"]`); globs such as `release/*` work; the list replaces the default"}},
		Denied: []Example{
			{Tool: event.ToolShell, Text: "git push --force origin main"},
			{Tool: event.ToolShell, Text: "git push -f origin HEAD:master"},
			{Tool: event.ToolShell, Text: "git push origin +main"},
			{Tool: event.ToolShell, Text: "git push --force-with-lease origin feature:refs/heads/main"},
			{Tool: event.ToolShell, Text: "git push -uf origin develop"},
			{Tool: event.ToolShell, Text: "git push --force-w origin trunk", Notes: "--force-with-lease, abbreviated"},
			{Tool: event.ToolShell, Text: "git push origin --delete main"},
			{Tool: event.ToolShell, Text: "git push origin :master"},
			{Tool: event.ToolShell, Text: "git push --mirror git@github.com:me/app.git"},
			{Tool: event.ToolShell, Text: "git push origin --all --force"},
			{Tool: event.ToolShell, Text: "git push --prune origin"},
			{Tool: event.ToolShell, Text: "git push origin '+refs/heads/*:refs/heads/*'"},
			{Tool: event.ToolShell, Text: "git checkout main && git reset --hard origin/dev"},
			{Tool: event.ToolShell, Text: "cd src && git -C . push -f", Cwd: repoOnMain, Notes: "in a repository on main"},
			{Tool: event.ToolShell, Text: "git push -f origin release/2.0"},
			{Tool: event.ToolShell, Text: "git push -f origin prod", With: `{"branches": ["prod"]}`},
		},
		Allowed: []Example{
			{Tool: event.ToolShell, Text: "git push origin main"},
			{Tool: event.ToolShell, Text: "git push --force origin feature/x"},
			{Tool: event.ToolShell, Text: "git push -f origin main:feature"},
			{Tool: event.ToolShell, Text: "git push --all origin"},
			{Tool: event.ToolShell, Text: "git push --dry-run --force origin main"},
			{Tool: event.ToolShell, Text: "git push origin '+refs/heads/feature/*:refs/heads/feature/*'"},
			{Tool: event.ToolShell, Text: "git push --force origin --delete feature/x"},
			{Tool: event.ToolShell, Text: "git switch -c fix && git reset --hard origin/main"},
			{Tool: event.ToolShell, Text: "git reset --soft HEAD~1", Cwd: repoOnMain, Notes: "in a repository on main"},
			{Tool: event.ToolShell, Text: "git push -f", Cwd: repoOnFeature, Notes: "in a repository on feature/x"},
			{Tool: event.ToolShell, Text: "git log --force"},
			{Tool: event.ToolShell, Text: `git commit -m "never git push --force to main"`},
			{Tool: event.ToolShell, Text: "git push -f origin main", With: `{"branches": ["prod"]}`},
		},
	},
	compile: func(p *params) (func(ev *event.Event) string, error) {
		branches := p.strs("branches")
		switch {
		case branches == nil:
			branches = defaultBranches
		case len(branches) == 0:
			p.fail(p.at("branches"), `"branches" is empty: name at least one branch, or leave the entry out`)
		}
		p.checkGlobs("branches", branches)
		g := compileGlobs(branches)
		return func(ev *event.Event) string { return protected(ev, g) }, nil
	},
}

// Working folders of the examples that the tests make into repositories.
const (
	repoOnMain    = "/repo-on-main"
	repoOnFeature = "/repo-on-feature"
)

// branchOf is a repository's current branch: ok is false when it is not
// known.
type branchOf struct {
	name string
	ok   bool
}

func protected(ev *event.Event, branches globs) string {
	// The current branch of each repository the line uses, read once and
	// moved by git checkout and git switch as the line goes.
	current := map[string]branchOf{}
	branch := func(g gitCall) (string, bool) {
		key := g.repoKey()
		if key == "" {
			return "", false
		}
		b, seen := current[key]
		if !seen {
			b.name, b.ok = headBranch(g)
			current[key] = b
		}
		return b.name, b.ok
	}
	return eachGit(ev, "make sure it does not force-push or delete a protected branch", func(r shellRun, g gitCall) string {
		switch g.sub {
		case "checkout", "switch":
			if key := g.repoKey(); key != "" {
				if b, moved := switchedTo(g, branches); moved {
					current[key] = b
				}
			}
		case "reset":
			if mode := resetMode(g.args); mode != "hard" && mode != "merge" {
				return ""
			}
			if b, ok := branch(g); ok && branches.match(b) {
				return said(r.cmd) + " discards commits and changes on the protected branch " + b
			}
		case "push":
			return push(g, branches, func() (string, bool) { return branch(g) })
		}
		return ""
	})
}

// eachGit calls fn with each git command of a shell tool call, in order,
// until one gives a finding. A git command that cannot be read (its
// subcommand or options known only at run time) is unsure, with about
// saying what to check; the first unsure finding, its own or fn's, is the
// answer when no command gives a sure one.
func eachGit(ev *event.Event, about string, fn func(r shellRun, g gitCall) string) string {
	doubt := ""
	for _, r := range shellOf(ev) {
		g := gitOf(r.cmd, r.cwd)
		if g.sub == "" {
			continue
		}
		f := ""
		if why := g.unreadable(); why != "" {
			f = unsure + said(r.cmd) + " " + why + "; " + about
		} else {
			f = fn(r, g)
		}
		switch {
		case f == "":
		case strings.HasPrefix(f, unsure):
			if doubt == "" {
				doubt = f
			}
		default:
			return f
		}
	}
	return doubt
}

// switchedTo says which branch git checkout or git switch leaves the
// repository on, and whether it moves at all (a checkout of paths does
// not).
func switchedTo(g gitCall, branches globs) (branchOf, bool) {
	syn := checkoutSyntax
	if g.sub == "switch" {
		syn = switchSyntax
	}
	o := scanGit(g.args, syn)
	for _, x := range o.opts {
		switch x.name {
		case "b", "B", "create", "force-create", "orphan":
			return branchOf{x.value, !dynamic(x.value)}, true
		case "detach":
			return branchOf{"", true}, true // no branch: a push of HEAD fails
		}
	}
	if len(o.ops) != 1 || o.dashdash == 0 {
		return branchOf{}, false
	}
	b := o.ops[0]
	switch {
	case b == "-" || strings.HasPrefix(b, "@{") || dynamic(b):
		return branchOf{}, true // the previous branch, or one named at run time
	case g.sub == "switch" || branches.match(b):
		// A protected name is taken for a branch even when it might be a
		// path: better a report too many.
		return branchOf{b, true}, true
	case pathLike(b) || isPathNotRef(g, b):
		return branchOf{}, false // a checkout of paths
	}
	if _, ok := g.repo(); !ok {
		return branchOf{}, true // a branch or a path: the folder cannot be read
	}
	return branchOf{b, true}, true
}

// pushSyntax is git push's options (builtin/push.c).
var pushSyntax = gitSyntax{
	long: []string{"all", "branches", "mirror", "delete", "tags", "dry-run", "porcelain", "force", "force-with-lease",
		"force-if-includes", "recurse-submodules=", "thin", "receive-pack=", "exec=", "set-upstream", "progress", "prune",
		"no-verify", "verify", "follow-tags", "signed", "atomic", "push-option=", "repo=", "ipv4", "ipv6", "verbose", "quiet",
		"no-all", "no-branches", "no-mirror", "no-delete", "no-dry-run", "no-force", "no-force-with-lease",
		"no-force-if-includes", "no-prune", "no-thin", "no-progress", "no-follow-tags", "no-signed", "no-atomic",
		"no-recurse-submodules", "no-tags", "no-push-option"},
	short: [][2]string{{"v", "verbose"}, {"q", "quiet"}, {"d", "delete"}, {"n", "dry-run"}, {"f", "force"},
		{"u", "set-upstream"}, {"o", "push-option="}, {"4", "ipv4"}, {"6", "ipv6"}},
}

// push checks one git push against the protected branches; current reads
// the repository's current branch.
func push(g gitCall, branches globs, current func() (string, bool)) string {
	o := scanGit(g.args, pushSyntax)
	if o.has("dry-run") {
		return "" // nothing is sent
	}
	mirror, all, del, prune := o.has("mirror"), o.has("all", "branches"), o.has("delete"), o.has("prune")
	// --force-if-includes alone forces nothing: git ignores it without
	// --force-with-lease.
	forced := mirror || o.has("force") || o.has("force-with-lease")
	cmd := said(g.cmd)
	var refspecs []string
	if len(o.ops) > 1 {
		refspecs = o.ops[1:]
	}
	// Settings given on the line that decide what a push without refspecs
	// sends.
	matching := false
	for _, kv := range g.config {
		k, v, _ := strings.Cut(kv, "=")
		k = strings.ToLower(k)
		switch {
		case strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".mirror") && gitTrue(v):
			mirror, forced = true, true
		case strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".push") && len(o.ops) <= 1 && !all && !mirror:
			refspecs = append(refspecs, v)
		case k == "push.default" && len(o.ops) <= 1:
			switch strings.ToLower(v) {
			case "matching":
				matching = true
			case "upstream", "tracking":
				if forced {
					return unsure + cmd + " force-pushes the current branch to its upstream, whose name is not known here; make sure it is not protected"
				}
			}
		}
	}
	every := cmd + " can overwrite or delete every branch of the remote, protected ones included"
	switch {
	case mirror:
		return every // --mirror forces, and deletes what is not local
	case all && (forced || prune):
		return every
	case prune && len(refspecs) == 0:
		return every
	case matching && forced && len(refspecs) == 0:
		return every
	}
	if len(refspecs) == 0 && !g.fed {
		if !forced || all || o.has("tags") { // --tags alone sends tags only
			return ""
		}
		b, ok := current()
		if !ok {
			return unsure + cmd + " force-pushes the current branch, which could not be read; make sure it is not protected"
		}
		if branches.match(b) {
			return cmd + " force-pushes the protected branch " + b
		}
		return ""
	}
	for _, ref := range refspecs {
		if f := refspec(cmd, ref, forced, del, prune, branches, current); f != "" {
			return f
		}
	}
	if g.fed && (forced || del) {
		return unsure + cmd + " takes more branches from its input; make sure none is protected"
	}
	return ""
}

// refspec checks one refspec of a push.
func refspec(cmd, ref string, forced, del, prune bool, branches globs, current func() (string, bool)) string {
	plus := strings.HasPrefix(ref, "+")
	ref = strings.TrimPrefix(ref, "+")
	src, dst, colon := strings.Cut(ref, ":")
	switch {
	case !colon || del:
		dst = ref
	case dst == "" && src != "":
		dst = src // main: updates the remote's main
	}
	deletes := del || colon && src == ""
	pattern := ref == ":" || strings.Contains(dst, "*")
	if !forced && !plus && !deletes && !(prune && pattern) {
		return "" // a push that is not forced only adds commits
	}
	if dynamic(ref) {
		return unsure + cmd + " names its branch only when it runs; make sure it is not protected"
	}
	if pattern {
		if ref == ":" || globTouches(dst, branches) {
			return cmd + " can overwrite every branch its pattern matches on the remote, protected ones included"
		}
		return ""
	}
	if !colon && (dst == "HEAD" || dst == "@") {
		// HEAD alone pushes the current branch to its name; as a
		// destination (x:HEAD) it is a branch named HEAD.
		b, ok := current()
		if !ok {
			return unsure + cmd + " force-pushes the current branch, which could not be read; make sure it is not protected"
		}
		dst = b
	}
	name, ok := branchName(dst)
	if !ok || !branches.match(name) {
		return ""
	}
	if deletes {
		return cmd + " deletes the protected branch " + name + " on the remote"
	}
	return cmd + " force-pushes the protected branch " + name
}

// branchName is the branch a push destination names, as git reads it:
// refs/heads/x and heads/x are x, a name without refs/ is a branch, and
// other refs (tags, notes) are no branch.
func branchName(dst string) (string, bool) {
	if b, ok := strings.CutPrefix(dst, "refs/heads/"); ok {
		return b, true
	}
	if strings.HasPrefix(dst, "refs/") {
		return "", false
	}
	return strings.TrimPrefix(dst, "heads/"), true
}

// globTouches reports whether a refspec pattern (one "*", as git allows)
// can match a protected branch. A protected pattern counts when the
// literal part of the two could overlap: better a report too many than a
// rewritten main.
func globTouches(dst string, branches globs) bool {
	switch {
	case strings.HasPrefix(dst, "refs/heads/"):
		dst = strings.TrimPrefix(dst, "refs/heads/")
	case strings.HasPrefix("refs/heads/", strings.SplitN(dst, "*", 2)[0]):
		return true // refs/*, refs/h*, *: every branch
	case strings.HasPrefix(dst, "refs/"):
		return false // tags, notes
	default:
		dst = strings.TrimPrefix(dst, "heads/")
	}
	prefix, suffix, _ := strings.Cut(dst, "*")
	for _, pat := range branches {
		lit, meta := pat.src, false
		if i := strings.IndexAny(lit, "*?[\\"); i >= 0 {
			lit, meta = lit[:i], true
		}
		switch {
		case meta && (strings.HasPrefix(lit, prefix) || strings.HasPrefix(prefix, lit)):
			return true
		case !meta && len(lit) >= len(prefix)+len(suffix) && strings.HasPrefix(lit, prefix) && strings.HasSuffix(lit, suffix):
			return true
		}
	}
	return false
}

// gitTrue reads a git boolean setting.
func gitTrue(v string) bool {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1", "":
		return true
	}
	return false
}

// dynamic reports whether a word is known only when the line runs: it
// holds a variable or a command substitution.
func dynamic(w string) bool { return strings.ContainsAny(w, "$`") }

// gitCall is one git command as git reads it: its subcommand and
// arguments, and what git's own options before the subcommand change.
type gitCall struct {
	cmd    shellcmd.Command
	sub    string   // "push"; "" when the command is not git or runs no subcommand
	args   []string // the subcommand's arguments
	dir    string   // the folder git runs in (the command's, moved by -C); "" when not known
	gitDir string   // --git-dir or GIT_DIR, resolved against dir; "" when not given
	config []string // -c name=value, in order
	// repoUnknown is set when --git-dir or GIT_DIR names a folder that is
	// not known before the line runs.
	repoUnknown bool
	// fed is set when xargs or find -exec adds arguments at run time.
	fed bool
}

// gitArgs returns git's subcommand and its arguments, past git's own
// options.
func gitArgs(c shellcmd.Command) (string, []string) {
	g := gitOf(c, "")
	return g.sub, g.args
}

// gitOf reads a git command run in cwd: `git [options] sub args…`, or a
// git-sub program (git-filter-repo, /usr/lib/git-core/git-reset). Git's
// own options (git.c, handle_options) are matched whole: git does not
// take them abbreviated.
func gitOf(c shellcmd.Command, cwd string) gitCall {
	g := gitCall{cmd: c, dir: cwd, fed: slices.Contains(c.Via, "xargs") || slices.Contains(c.Via, "find -exec")}
	name := c.Name()
	if sub, ok := strings.CutPrefix(name, "git-"); ok && sub != "" {
		g.sub, g.args = sub, c.Args[1:]
	} else if name != "git" {
		return gitCall{}
	}
	for _, e := range c.Env {
		if v, ok := strings.CutPrefix(e, "GIT_DIR="); ok {
			g.setGitDir(v)
		}
	}
	if g.sub != "" {
		return g
	}
	args := c.Args[1:]
	for len(args) > 0 {
		a := args[0]
		opt, val, eq := strings.Cut(a, "=")
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" ||
			a == "--config-env" || a == "--attr-source":
			if len(args) < 2 {
				return gitCall{}
			}
			g.global(a, args[1])
			args = args[2:]
		case eq && (opt == "--git-dir" || opt == "--work-tree" || opt == "--namespace" || opt == "--config-env" || opt == "--attr-source"):
			g.global(opt, val)
			args = args[1:]
		case a == "-h" || a == "--help" || a == "-v" || a == "--version" || strings.HasPrefix(a, "--list-cmds") ||
			a == "--html-path" || a == "--man-path" || a == "--info-path" || a == "--exec-path":
			return gitCall{} // git prints something and runs no subcommand
		case strings.HasPrefix(a, "-"):
			args = args[1:] // -p, --no-pager, --bare, --exec-path=…, and options of newer gits
		default:
			g.sub, g.args = a, args[1:]
			return g
		}
	}
	return gitCall{}
}

// global applies one of git's own options with a value.
func (g *gitCall) global(opt, val string) {
	switch opt {
	case "-C":
		if val == "" {
			return // git -C "" stays where it is
		}
		d := expand(val, g.dir)
		if dynamic(val) || !filepath.IsAbs(d) {
			g.dir = "" // named at run time, or relative to a folder not known
			return
		}
		g.dir = d
	case "-c":
		g.config = append(g.config, val)
	case "--git-dir":
		g.setGitDir(val)
	}
}

func (g *gitCall) setGitDir(v string) {
	d := expand(v, g.dir)
	if dynamic(v) || !filepath.IsAbs(d) {
		g.gitDir, g.repoUnknown = "", true
		return
	}
	g.gitDir = d
}

// unreadable says why a git command cannot be judged before it runs: its
// subcommand is a variable, or an alias defined on the line.
func (g gitCall) unreadable() string {
	if dynamic(g.sub) {
		return "runs a git command known only when it runs"
	}
	for _, kv := range g.config {
		k, _, _ := strings.Cut(kv, "=")
		if strings.EqualFold(k, "alias."+g.sub) {
			return "runs the alias " + g.sub + " defined on the line"
		}
	}
	return ""
}

// repoKey names the repository a git command works on, for remembering
// its current branch along the line; "" when it is not known.
func (g gitCall) repoKey() string {
	if g.repoUnknown {
		return ""
	}
	if g.gitDir != "" {
		return "git-dir:" + g.gitDir
	}
	return g.dir
}

// headBranch reads the current branch of the repository a git command
// works on.
func headBranch(g gitCall) (string, bool) {
	gd, ok := g.repo()
	if !ok {
		return "", false
	}
	head, err := readHead(filepath.Join(gd, "HEAD"), 4096)
	if err != nil {
		return "", false
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(head), "ref: refs/heads/")
	return ref, ok // a detached HEAD is no branch
}

// repo finds the git folder of the repository a git command works on:
// --git-dir or GIT_DIR, else the .git folder of its folder or the nearest
// one above, or the folder a .git file points to (worktrees, submodules).
func (g gitCall) repo() (string, bool) {
	if g.repoUnknown {
		return "", false
	}
	if g.gitDir != "" {
		return g.gitDir, true
	}
	if g.dir == "" || !filepath.IsAbs(g.dir) {
		return "", false
	}
	for d, i := filepath.Clean(g.dir), 0; i < 64; i++ {
		gitPath := filepath.Join(d, ".git")
		if st, err := os.Stat(gitPath); err == nil {
			if st.IsDir() {
				return gitPath, true
			}
			b, err := readHead(gitPath, 4096)
			if err != nil {
				return "", false
			}
			target, ok := strings.CutPrefix(strings.TrimSpace(b), "gitdir:")
			if !ok {
				return "", false
			}
			target = strings.TrimSpace(target)
			if !filepath.IsAbs(target) {
				target = filepath.Join(d, target)
			}
			return target, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
	return "", false
}

// gitSyntax lists the options of a git subcommand, as its parse-options
// table declares them: long names (a trailing "=" marks one whose value
// may be the next word), the "no-" forms that matter, and the short
// letters with the long option each stands for (a letter alone when it
// has none).
type gitSyntax struct {
	long  []string
	short [][2]string
}

// gitOpt is one option as read: its long name (or letter) and value.
type gitOpt struct {
	name, value string
}

// gitScan is a subcommand's arguments as git reads them.
type gitScan struct {
	opts []gitOpt // in order: a later one overrides an earlier one
	ops  []string // the operands, those after "--" included
	// dashdash is the index in ops of the first operand after "--", or -1.
	dashdash int
}

// scanGit reads a subcommand's arguments the way git's parse-options
// does: options anywhere before "--", short ones bundled (`-fd`), a value
// in the same word or the next, long ones by any unambiguous prefix
// (longOption). An option the table does not know is skipped: git would
// refuse it, or it is one of a newer git that changes nothing the
// policies look at.
func scanGit(args []string, syn gitSyntax) gitScan {
	s := gitScan{dashdash: -1}
	names := make([]string, len(syn.long))
	for i, l := range syn.long {
		names[i] = strings.TrimSuffix(l, "=")
	}
	takesValue := func(name string) bool {
		for _, l := range syn.long {
			if l == name+"=" {
				return true
			}
		}
		return false
	}
	done := false // after --end-of-options, only "--" is special
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			s.dashdash = len(s.ops)
			s.ops = append(s.ops, args[i+1:]...)
			return s
		case done || a == "-" || !strings.HasPrefix(a, "-"):
			s.ops = append(s.ops, a)
		case a == "--end-of-options":
			done = true
		case strings.HasPrefix(a, "--"):
			name, ok := longOption(a, names)
			if !ok {
				continue
			}
			_, val, eq := strings.Cut(a, "=")
			if !eq && takesValue(name) && i+1 < len(args) {
				i++
				val = args[i]
			}
			s.opts = append(s.opts, gitOpt{name, val})
		default:
			for j := 1; j < len(a); j++ {
				name := string(a[j])
				for _, sh := range syn.short {
					if sh[0] == name {
						name = sh[1]
					}
				}
				if n, ok := strings.CutSuffix(name, "="); ok {
					val := a[j+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i]
					}
					s.opts = append(s.opts, gitOpt{n, val})
					break
				}
				s.opts = append(s.opts, gitOpt{name, ""})
			}
		}
	}
	return s
}

// has reports whether an option was given and not negated afterwards
// ("--force … --no-force").
func (s gitScan) has(names ...string) bool {
	on := false
	for _, o := range s.opts {
		for _, n := range names {
			switch o.name {
			case n:
				on = true
			case "no-" + n:
				on = false
			}
		}
	}
	return on
}

// value is the last value given to an option, and whether it was given.
func (s gitScan) value(name string) (string, bool) {
	v, ok := "", false
	for _, o := range s.opts {
		switch o.name {
		case name:
			v, ok = o.value, true
		case "no-" + name:
			v, ok = "", false
		}
	}
	return v, ok
}

// paths are the operands after "--".
func (s gitScan) paths() []string {
	if s.dashdash < 0 {
		return nil
	}
	return s.ops[s.dashdash:]
}

// before are the operands before "--".
func (s gitScan) before() []string {
	if s.dashdash < 0 {
		return s.ops
	}
	return s.ops[:s.dashdash]
}
