package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
)

var gitDiscard = &spec{
	Info: Info{
		Name:    "hookshim/git-discard",
		Summary: "deny git commands that destroy uncommitted or unpushed work, on any branch",
		Events:  toolEvents,
		Catches: "`git reset --hard` and `--merge`; `git clean` with `-f`/`--force` or `-i` (not with `-n`/`--dry-run`); " +
			"`git checkout` of paths (`-- paths`, `.`, `BRANCH -- paths`, `BRANCH path`, a name that is a file or folder on disk and no ref, " +
			"`--pathspec-from-file`, `-p`) and `git checkout -f`; `git restore` of paths in the working tree (the default, or `-W`/`--worktree`); " +
			"`git switch --discard-changes`/`-f`; `git stash drop` and `git stash clear`; `git branch -D` (`--delete --force`, `-df`; not with `-r`); " +
			"`git worktree remove --force`; `git submodule deinit --force` and `git submodule update --force`; " +
			"`git reflog expire --expire=…`, `git reflog delete`, `git gc --prune=now` and `git prune`, which destroy what lost work is recovered from; " +
			"`git update-ref -d` (not of a remote-tracking ref); `git filter-branch` and `git filter-repo`. " +
			"Long options may be abbreviated as git allows (`git reset --har`), short ones bundled (`git clean -fdx`); " +
			"`git -C dir`, `--git-dir`, `--work-tree`, `-c name=value` before the subcommand are read through " +
			"(`-c clean.requireForce=false` makes a plain `git clean` count). A subcommand known only when the line runs (`git $cmd --hard`), " +
			"an alias defined on the line, a `git stash`, `git worktree` or `git submodule` action held in a variable, " +
			"`git checkout $X` (a branch or a path), `xargs git checkout` and `git update-ref --stdin` are answered with ask " +
			"(`xargs git restore` and `xargs git checkout --` are denied: what they get is paths). Wrapped commands count; " +
			"a line that cannot be read to its end is answered with ask, as by every shell policy.",
		Misses: "rewrites of commits that may have been pushed (`git rebase`, `git commit --amend`, `git reset --soft`/`--mixed`/`--keep` " +
			"to an older commit): whether they were pushed is not known here, the commits stay in the reflog, and a push of the " +
			"rewrite needs a force-push (`hookshim/protected-branches`); `git stash pop`, which keeps the stash when it cannot apply it; " +
			"`git branch -f`, `git branch -M`, `git checkout -B`, `git switch -C` over an existing branch (whether it exists is not read); " +
			"`git rm -f`, `git merge --abort`, `git worktree prune` (it drops only the records of worktrees already gone), " +
			"`git submodule deinit --all` without `--force` (git refuses when there are changes); " +
			"settings from git's configuration files (`clean.requireForce = false`, aliases); options held in variables the line does not set " +
			"(`git reset $MODE`); and `git checkout NAME` taken for a branch when the folder cannot be read.",
		Params: []Param{{"allow", "array of strings", "git subcommands never reported, e.g. `[\"clean\", \"stash\"]`; one of " +
			"`reset`, `clean`, `checkout`, `restore`, `switch`, `stash`, `branch`, `worktree`, `submodule`, `reflog`, `gc` (also `git prune`), " +
			"`update-ref`, `filter-branch`, `filter-repo`"}},
		Denied: []Example{
			{Tool: event.ToolShell, Text: "git reset --hard"},
			{Tool: event.ToolShell, Text: "git reset --har origin/main", Notes: "--hard, abbreviated"},
			{Tool: event.ToolShell, Text: "git clean -fdx"},
			{Tool: event.ToolShell, Text: "git checkout -- src/app.go"},
			{Tool: event.ToolShell, Text: "git checkout ."},
			{Tool: event.ToolShell, Text: "git checkout main -- README.md"},
			{Tool: event.ToolShell, Text: "git checkout -f feature"},
			{Tool: event.ToolShell, Text: "git restore ."},
			{Tool: event.ToolShell, Text: "git restore -SW src/"},
			{Tool: event.ToolShell, Text: "git switch --discard-changes main"},
			{Tool: event.ToolShell, Text: "git stash drop"},
			{Tool: event.ToolShell, Text: "git stash clear"},
			{Tool: event.ToolShell, Text: "git branch -D old-feature"},
			{Tool: event.ToolShell, Text: "git branch --delete --force old-feature"},
			{Tool: event.ToolShell, Text: "git worktree remove --force ../wt"},
			{Tool: event.ToolShell, Text: "git submodule deinit -f lib/x"},
			{Tool: event.ToolShell, Text: "git reflog expire --expire=now --all && git gc --prune=now"},
			{Tool: event.ToolShell, Text: "git update-ref -d refs/heads/old"},
			{Tool: event.ToolShell, Text: "git filter-branch --tree-filter 'rm -f secrets.txt' HEAD"},
			{Tool: event.ToolShell, Text: "cd sub && git -C .. -c core.pager=cat reset --hard HEAD~2"},
			{Tool: event.ToolShell, Text: "git clean -f", With: `{"allow": ["stash"]}`},
		},
		Allowed: []Example{
			{Tool: event.ToolShell, Text: "git reset --soft HEAD~1"},
			{Tool: event.ToolShell, Text: "git reset HEAD file.txt"},
			{Tool: event.ToolShell, Text: "git reset --keep HEAD~1"},
			{Tool: event.ToolShell, Text: "git clean -n"},
			{Tool: event.ToolShell, Text: "git clean -fdn"},
			{Tool: event.ToolShell, Text: "git checkout -b fix"},
			{Tool: event.ToolShell, Text: "git checkout feature/x"},
			{Tool: event.ToolShell, Text: "git checkout -"},
			{Tool: event.ToolShell, Text: "git restore --staged src/app.go"},
			{Tool: event.ToolShell, Text: "git switch main"},
			{Tool: event.ToolShell, Text: "git stash"},
			{Tool: event.ToolShell, Text: "git stash pop"},
			{Tool: event.ToolShell, Text: "git branch -d merged"},
			{Tool: event.ToolShell, Text: "git branch -D -r origin/gone"},
			{Tool: event.ToolShell, Text: "git worktree remove ../wt"},
			{Tool: event.ToolShell, Text: "git gc --aggressive"},
			{Tool: event.ToolShell, Text: "git log --force"},
			{Tool: event.ToolShell, Text: `git commit -m "git reset --hard would lose this"`},
			{Tool: event.ToolShell, Text: "git stash clear", With: `{"allow": ["stash"]}`},
		},
	},
	compile: func(p *params) (func(ev *event.Event) string, error) {
		allow := p.strs("allow")
		for _, a := range allow {
			if !slices.Contains(discardKinds, a) {
				p.fail(p.at("allow"), quote(a)+" is not a git subcommand this policy reports (known: "+strings.Join(discardKinds, ", ")+")")
				break
			}
		}
		return func(ev *event.Event) string { return discards(ev, allow) }, nil
	},
}

// discardKinds are the git subcommands the policy reports, as "allow"
// names them; git prune is "gc".
var discardKinds = []string{"reset", "clean", "checkout", "restore", "switch", "stash", "branch", "worktree",
	"submodule", "reflog", "gc", "update-ref", "filter-branch", "filter-repo"}

func discards(ev *event.Event, allow []string) string {
	return eachGit(ev, "make sure it does not discard uncommitted work", func(r shellRun, g gitCall) string {
		kind := g.sub
		if kind == "prune" {
			kind = "gc"
		}
		if slices.Contains(allow, kind) {
			return ""
		}
		f := discard(g)
		if rest, ok := strings.CutPrefix(f, unsure); ok {
			return unsure + said(r.cmd) + " " + rest
		}
		if f != "" {
			f = said(r.cmd) + " " + f
		}
		return f
	})
}

// Syntaxes of the subcommands whose arguments are read closely (their
// parse-options tables in git's builtin/*.c).
var (
	resetSyntax = gitSyntax{
		long: []string{"hard", "soft", "mixed", "merge", "keep", "quiet", "patch", "intent-to-add", "pathspec-from-file=",
			"pathspec-file-nul", "recurse-submodules", "no-recurse-submodules", "refresh", "no-refresh", "no-quiet",
			"no-hard", "no-soft", "no-mixed", "no-merge", "no-keep"},
		short: [][2]string{{"q", "quiet"}, {"p", "patch"}, {"N", "intent-to-add"}},
	}
	cleanSyntax = gitSyntax{
		long:  []string{"quiet", "dry-run", "force", "interactive", "exclude=", "no-dry-run", "no-force", "no-interactive", "no-quiet"},
		short: [][2]string{{"q", "quiet"}, {"n", "dry-run"}, {"f", "force"}, {"i", "interactive"}, {"e", "exclude="}},
	}
	checkoutSyntax = gitSyntax{
		long: []string{"quiet", "progress", "no-progress", "force", "no-force", "ours", "theirs", "track", "no-track", "guess", "no-guess",
			"overlay", "no-overlay", "detach", "orphan=", "merge", "conflict=", "patch", "ignore-skip-worktree-bits",
			"ignore-other-worktrees", "recurse-submodules", "no-recurse-submodules", "overwrite-ignore", "no-overwrite-ignore",
			"pathspec-from-file=", "pathspec-file-nul", "unified=", "inter-hunk-context="},
		short: [][2]string{{"q", "quiet"}, {"f", "force"}, {"m", "merge"}, {"b", "b="}, {"B", "B="}, {"t", "track"}, {"U", "unified="},
			{"d", "detach"}, {"p", "patch"}, {"2", "ours"}, {"3", "theirs"}},
	}
	switchSyntax = gitSyntax{
		long: []string{"create=", "force-create=", "guess", "no-guess", "discard-changes", "no-discard-changes", "quiet", "progress",
			"no-progress", "force", "no-force", "detach", "track", "no-track", "orphan=", "merge", "conflict=", "ignore-other-worktrees",
			"recurse-submodules", "no-recurse-submodules"},
		short: [][2]string{{"c", "create="}, {"C", "force-create="}, {"f", "force"}, {"m", "merge"}, {"q", "quiet"},
			{"d", "detach"}, {"t", "track"}},
	}
	restoreSyntax = gitSyntax{
		long: []string{"source=", "staged", "no-staged", "worktree", "no-worktree", "ours", "theirs", "merge", "conflict=", "patch",
			"ignore-unmerged", "ignore-skip-worktree-bits", "overlay", "no-overlay", "quiet", "progress", "no-progress",
			"recurse-submodules", "no-recurse-submodules", "pathspec-from-file=", "pathspec-file-nul"},
		short: [][2]string{{"s", "source="}, {"S", "staged"}, {"W", "worktree"}, {"2", "ours"}, {"3", "theirs"},
			{"m", "merge"}, {"p", "patch"}, {"q", "quiet"}},
	}
	branchSyntax = gitSyntax{
		long: []string{"verbose", "quiet", "track", "no-track", "set-upstream-to=", "unset-upstream", "color", "no-color", "remotes",
			"contains=", "no-contains=", "with=", "without=", "abbrev", "no-abbrev", "all", "delete", "no-delete", "move", "copy",
			"list", "show-current", "create-reflog", "edit-description", "force", "no-force", "merged=", "no-merged=", "column",
			"no-column", "sort=", "points-at=", "ignore-case", "omit-empty", "format=", "recurse-submodules"},
		short: [][2]string{{"v", "verbose"}, {"q", "quiet"}, {"t", "track"}, {"u", "set-upstream-to="}, {"r", "remotes"},
			{"a", "all"}, {"d", "delete"}, {"m", "move"}, {"c", "copy"}, {"l", "list"}, {"f", "force"}, {"i", "ignore-case"}},
	}
	// The action of git stash, worktree, submodule and reflog comes first;
	// these read the words after it.
	forceSyntax = gitSyntax{
		long:  []string{"force", "no-force"},
		short: [][2]string{{"f", "force"}},
	}
	reflogSyntax = gitSyntax{
		long: []string{"expire=", "expire-unreachable=", "rewrite", "updateref", "stale-fix", "dry-run", "verbose", "all",
			"single-worktree"},
		short: [][2]string{{"n", "dry-run"}},
	}
	gcSyntax = gitSyntax{
		long: []string{"quiet", "prune", "no-prune", "aggressive", "auto", "force", "keep-largest-pack", "cruft", "no-cruft",
			"max-cruft-size=", "detach", "no-detach", "expire-to="},
		short: [][2]string{{"q", "quiet"}},
	}
	pruneSyntax = gitSyntax{
		long:  []string{"dry-run", "verbose", "progress", "expire=", "exclude-promisor-objects"},
		short: [][2]string{{"n", "dry-run"}, {"v", "verbose"}},
	}
	updateRefSyntax = gitSyntax{
		long:  []string{"stdin", "no-deref", "create-reflog"},
		short: [][2]string{{"d", "d"}, {"m", "m="}},
	}
	filterRepoSyntax = gitSyntax{
		long:  []string{"analyze", "dry-run", "help", "version"},
		short: [][2]string{{"h", "help"}},
	}
)

// resetMode is the mode of a git reset: "hard", "soft", "mixed", "merge",
// "keep", or "" for the default (mixed). The last one given wins, and a
// negated one (--no-hard) sets mixed, as git does.
func resetMode(args []string) string {
	mode := ""
	for _, o := range scanGit(args, resetSyntax).opts {
		switch o.name {
		case "hard", "soft", "mixed", "merge", "keep":
			mode = o.name
		case "no-hard", "no-soft", "no-mixed", "no-merge", "no-keep":
			mode = "mixed"
		}
	}
	return mode
}

// discard says what a git command destroys, or "" when nothing; a finding
// that starts with unsure cannot be judged before the command runs.
func discard(g gitCall) string {
	switch g.sub {
	case "reset":
		switch resetMode(g.args) {
		case "hard":
			return "discards uncommitted changes"
		case "merge":
			return "can discard staged changes"
		}
	case "clean":
		s := scanGit(g.args, cleanSyntax)
		noForce := false
		for _, kv := range g.config {
			k, v, _ := strings.Cut(kv, "=")
			if strings.EqualFold(k, "clean.requireForce") {
				noForce = !gitTrue(v)
			}
		}
		if !s.has("dry-run") && (s.has("force") || s.has("interactive") || noForce) {
			if s.has("x") || s.has("X") {
				return "deletes untracked and ignored files"
			}
			return "deletes untracked files"
		}
	case "checkout":
		return checkoutDiscards(g)
	case "restore":
		s := scanGit(g.args, restoreSyntax)
		_, fromFile := s.value("pathspec-from-file")
		if (s.has("worktree") || !s.has("staged")) && (len(s.ops) > 0 || fromFile || g.fed) {
			return "overwrites uncommitted changes in the paths it names"
		}
	case "switch":
		if s := scanGit(g.args, switchSyntax); s.has("discard-changes", "force") {
			return "discards uncommitted changes"
		}
	case "stash":
		// The action comes first; anything else is an implicit push.
		action := ""
		if len(g.args) > 0 {
			action = g.args[0]
		}
		switch {
		case action == "drop" || action == "clear":
			return "deletes stashed changes"
		case dynamic(action) || action == "" && g.fed:
			return unsure + "runs a stash action known only when it runs; make sure it does not drop stashed changes"
		}
	case "branch":
		s := scanGit(g.args, branchSyntax)
		if !s.has("remotes") && (s.has("D") || s.has("delete") && s.has("force")) {
			return "deletes a branch whose commits may be on no other branch"
		}
	case "worktree":
		switch action, rest := firstAction(g.args); {
		case action == "remove" && scanGit(rest, forceSyntax).has("force"):
			return "deletes a worktree with its uncommitted changes"
		case dynamic(action):
			return unsure + "runs a worktree action known only when it runs; make sure it does not remove one with changes"
		}
	case "submodule":
		switch action, rest := firstAction(g.args); {
		case action == "deinit" && scanGit(rest, forceSyntax).has("force"):
			return "deletes submodules' working trees with their local changes"
		case action == "update" && scanGit(rest, forceSyntax).has("force"):
			return "discards local changes in submodules"
		case dynamic(action):
			return unsure + "runs a submodule action known only when it runs; make sure it does not discard local changes"
		}
	case "reflog":
		action, rest := firstAction(g.args)
		s := scanGit(rest, reflogSyntax)
		if s.has("dry-run") {
			return ""
		}
		switch action {
		case "delete":
			return "deletes reflog entries, the record lost commits are recovered from"
		case "expire":
			for _, k := range []string{"expire", "expire-unreachable"} {
				if v, ok := s.value(k); ok && v != "never" && v != "false" {
					return "deletes reflog entries, the record lost commits are recovered from"
				}
			}
		}
	case "gc":
		if v, ok := scanGit(g.args, gcSyntax).value("prune"); ok && v != "" && v != "never" {
			return "deletes unreachable objects, which lost work is recovered from"
		}
	case "prune":
		if !scanGit(g.args, pruneSyntax).has("dry-run") {
			return "deletes unreachable objects, which lost work is recovered from"
		}
	case "update-ref":
		s := scanGit(g.args, updateRefSyntax)
		switch {
		case s.has("d") && !(len(s.ops) > 0 && strings.HasPrefix(s.ops[0], "refs/remotes/")):
			// A remote-tracking ref is a copy: the next fetch brings it back.
			return "deletes a ref; the commits only it names are lost"
		case s.has("stdin"):
			return unsure + "reads the refs it changes from its input; make sure it deletes none"
		}
	case "filter-branch":
		if !slices.Contains(g.args, "--help") && !slices.Contains(g.args, "-h") {
			return "rewrites the repository's history"
		}
	case "filter-repo":
		s := scanGit(g.args, filterRepoSyntax)
		if !s.has("analyze") && !s.has("dry-run") && !s.has("help") && !s.has("version") {
			return "rewrites the repository's history"
		}
	}
	return ""
}

// firstAction splits the action word of git worktree, submodule or reflog
// (the first word that is no option: git submodule takes --quiet before
// it) from the words after it.
func firstAction(args []string) (string, []string) {
	for i, a := range args {
		if a == "--" {
			return "", nil
		}
		if !strings.HasPrefix(a, "-") {
			return a, args[i+1:]
		}
	}
	return "", nil
}

// checkoutDiscards says what a git checkout overwrites. git checkout
// switches branches or, given paths, overwrites them from the index or a
// commit: without "--", one name is a path when it is no ref and exists
// on disk (git refuses one that is both), and with two names or more the
// first is the commit and the others are paths.
func checkoutDiscards(g gitCall) string {
	s := scanGit(g.args, checkoutSyntax)
	if s.has("force") {
		return "discards uncommitted changes"
	}
	const paths = "overwrites uncommitted changes in the paths it names"
	_, newBranch := s.value("b")
	if _, ok := s.value("B"); ok {
		newBranch = true
	}
	if s.has("track") && !newBranch && len(s.ops) >= 2 {
		return "" // git refuses: --track with paths needs -b (missing branch name)
	}
	if _, ok := s.value("pathspec-from-file"); ok || s.has("patch") || len(s.paths()) > 0 || s.dashdash >= 0 && g.fed {
		return paths
	}
	if _, ok := s.value("b"); ok {
		return ""
	}
	if _, ok := s.value("B"); ok {
		return ""
	}
	if _, ok := s.value("orphan"); ok {
		return ""
	}
	ops := s.before()
	switch {
	case len(ops) >= 2:
		return paths
	case s.has("detach"):
		return ""
	case g.fed:
		return unsure + "takes branches or paths from its input; make sure it overwrites no changed file"
	case len(ops) == 0:
		return ""
	}
	name := ops[0]
	switch {
	case pathLike(name):
		return paths
	case dynamic(name):
		return unsure + "names a branch or paths known only when it runs; make sure it overwrites no changed file"
	case isPathNotRef(g, name):
		return paths
	}
	return ""
}

// pathLike reports whether a checkout operand can only be a path: "." and
// "..", a relative or absolute path, a glob or pathspec magic.
func pathLike(w string) bool {
	return w == "." || w == ".." || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") ||
		strings.HasPrefix(w, "/") || strings.HasPrefix(w, ":") || strings.ContainsAny(w, "*?[")
}

// isPathNotRef reports whether name exists on disk in the folder git runs
// in and is no ref of the repository: git checkout then takes it for a
// path. When the folder or the repository cannot be read, the name is
// taken for a branch.
func isPathNotRef(g gitCall, name string) bool {
	if g.dir == "" || !filepath.IsAbs(g.dir) {
		return false
	}
	if _, err := os.Lstat(filepath.Join(g.dir, filepath.FromSlash(name))); err != nil {
		return false
	}
	if name == "HEAD" || name == "@" || strings.ContainsAny(name, "~^@:") || hexName(name) {
		return false // a revision
	}
	gd, ok := g.repo()
	if !ok {
		return false
	}
	// Refs live in the common folder of a linked worktree.
	if b, err := readHead(filepath.Join(gd, "commondir"), 4096); err == nil {
		c := strings.TrimSpace(b)
		if !filepath.IsAbs(c) {
			c = filepath.Join(gd, c)
		}
		gd = c
	}
	for _, ref := range []string{name, "refs/" + name, "refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name} {
		if _, err := os.Stat(filepath.Join(gd, filepath.FromSlash(ref))); err == nil {
			return false
		}
	}
	packed, err := readHead(filepath.Join(gd, "packed-refs"), 64<<20)
	if err != nil {
		return true
	}
	for _, line := range strings.Split(packed, "\n") {
		_, ref, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		for _, prefix := range []string{"refs/", "refs/tags/", "refs/heads/", "refs/remotes/"} {
			if ref == prefix+name {
				return false
			}
		}
	}
	return true
}

// hexName reports whether a name could be an abbreviated commit id.
func hexName(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
