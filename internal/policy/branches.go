package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/shellcmd"
)

var protectedBranches = &spec{
	Info: Info{
		Name:    "hookshim/protected-branches",
		Summary: "deny force-pushes to, remote deletes of, and hard resets on protected branches",
		Events:  toolEvents,
		Catches: "`git push` with `-f`, `--force`, `--force-with-lease`, `--force-if-includes`, `--mirror` or a `+` refspec " +
			"whose destination is a protected branch (`main`, `HEAD:main`, `+main`, `refs/heads/main`), " +
			"or with no refspec while the current branch is protected (read from the repository's HEAD at the event's " +
			"folder, following `git checkout`/`git switch` earlier in the line; when it cannot be read, the answer is ask); " +
			"`git push --delete main`, `git push origin :main`; `git reset --hard` while on a protected branch. " +
			"`git -C dir` and the other global options are understood; wrapped commands count.",
		Misses: "pushes through aliases or scripts (`git pf`, `./release.sh`), a branch named only by a variable, " +
			"a push whose destination is set by `push.default`/`remote.*.push` to another name, resets done with other commands " +
			"(`git checkout -f`, `git branch -f main x`), a current branch the event's folder does not show (`git -C` elsewhere), and a `git reset --hard` whose current branch cannot be read (no opinion: resets are common on any branch).",
		Params: []Param{{"branches", "array of globs", "the protected branches (default `[\"main\", \"master\"]`); globs such as `release/*` work"}},
		Denied: []Example{
			{Tool: event.ToolShell, Text: "git push --force origin main"},
			{Tool: event.ToolShell, Text: "git push -f origin HEAD:master"},
			{Tool: event.ToolShell, Text: "git push origin +main"},
			{Tool: event.ToolShell, Text: "git push --force-with-lease origin feature:refs/heads/main"},
			{Tool: event.ToolShell, Text: "git push origin --delete main"},
			{Tool: event.ToolShell, Text: "git push origin :master"},
			{Tool: event.ToolShell, Text: "git checkout main && git reset --hard origin/dev"},
			{Tool: event.ToolShell, Text: "cd src && git -C . push -f", Cwd: repoOnMain, Notes: "in a repository on main"},
			{Tool: event.ToolShell, Text: "git push -f origin release/2.0", With: `{"branches": ["release/*"]}`},
		},
		Allowed: []Example{
			{Tool: event.ToolShell, Text: "git push origin main"},
			{Tool: event.ToolShell, Text: "git push --force origin feature/x"},
			{Tool: event.ToolShell, Text: "git push -f origin main:feature"},
			{Tool: event.ToolShell, Text: "git switch -c fix && git reset --hard origin/main"},
			{Tool: event.ToolShell, Text: "git reset --soft HEAD~1", Cwd: repoOnMain, Notes: "in a repository on main"},
			{Tool: event.ToolShell, Text: "git push -f", Cwd: repoOnFeature, Notes: "in a repository on feature/x"},
			{Tool: event.ToolShell, Text: `git commit -m "never git push --force to main"`},
			{Tool: event.ToolShell, Text: "git push -f origin main", With: `{"branches": ["prod"]}`},
		},
	},
	compile: func(p *params) (func(ev *event.Event) string, error) {
		branches := p.strs("branches")
		switch {
		case branches == nil:
			branches = []string{"main", "master"}
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

func protected(ev *event.Event, branches globs) string {
	runs, _, _ := shellOf(ev)
	current, known := "", false // the current branch, as the line changes it
	isProtected := func(b string) bool {
		b = strings.TrimPrefix(b, "refs/heads/")
		return branches.match(b)
	}
	for _, r := range runs {
		sub, args := gitArgs(r.cmd)
		if sub == "" {
			continue
		}
		switch sub {
		case "checkout", "switch":
			ops := operands(args)
			short, long := flags(args)
			switch {
			case strings.ContainsAny(short, "bBcC") || slices.Contains(long, "create") || slices.Contains(long, "orphan"):
				// -b NAME: the new branch is the operand after the flag.
				for i, a := range args {
					if (a == "-b" || a == "-B" || a == "-c" || a == "-C" || a == "--create" || a == "--orphan") && i+1 < len(args) {
						current, known = args[i+1], true
					}
				}
			case len(ops) == 1:
				current, known = ops[0], true
			}
		case "reset":
			if !slices.Contains(args, "--hard") {
				continue
			}
			b, ok := current, known
			if !ok {
				b, ok = headBranch(r.cwd)
			}
			if ok && isProtected(b) {
				return show(r.cmd.Args) + " discards commits and changes on the protected branch " + b
			}
		case "push":
			if f := push(r.cmd, args, isProtected, func() (string, bool) {
				if known {
					return current, true
				}
				return headBranch(r.cwd)
			}); f != "" {
				return f
			}
		}
	}
	return ""
}

// gitArgs returns git's subcommand and its arguments, past git's own
// options.
func gitArgs(c shellcmd.Command) (string, []string) {
	if c.Name() != "git" {
		return "", nil
	}
	args := c.Args[1:]
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			if len(args) < 2 {
				return "", nil
			}
			args = args[2:]
		case strings.HasPrefix(a, "-"):
			args = args[1:]
		default:
			return a, args[1:]
		}
	}
	return "", nil
}

// push checks one git push.
func push(c shellcmd.Command, args []string, isProtected func(string) bool, current func() (string, bool)) string {
	short, long := flags(args)
	force := strings.ContainsRune(short, 'f') || slices.Contains(long, "force") || slices.Contains(long, "force-with-lease") ||
		slices.Contains(long, "force-if-includes") || slices.Contains(long, "mirror")
	del := strings.ContainsRune(short, 'd') || slices.Contains(long, "delete")
	// Options with a value in the next word.
	ops := operandsSkipping(args, "-o", "--push-option", "--repo", "--receive-pack", "--exec")
	if slices.Contains(long, "mirror") || slices.Contains(long, "all") || slices.Contains(long, "branches") {
		if force {
			return show(c.Args) + " overwrites every branch of the remote, protected ones included"
		}
		return ""
	}
	if len(ops) <= 1 { // no refspec: the current branch
		if !force {
			return ""
		}
		b, ok := current()
		if !ok {
			return unsure + show(c.Args) + " force-pushes the current branch, which could not be read; make sure it is not protected"
		}
		if isProtected(b) {
			return show(c.Args) + " force-pushes the protected branch " + b
		}
		return ""
	}
	for _, ref := range ops[1:] {
		plus := strings.HasPrefix(ref, "+")
		ref = strings.TrimPrefix(ref, "+")
		src, dst, colon := strings.Cut(ref, ":")
		if !colon {
			dst = src
		}
		if dst == "HEAD" || dst == "@" {
			b, ok := current()
			if !ok {
				if force || plus {
					return unsure + show(c.Args) + " force-pushes the current branch, which could not be read; make sure it is not protected"
				}
				continue
			}
			dst = b
		}
		if !isProtected(dst) {
			continue
		}
		switch {
		case del || colon && src == "":
			return show(c.Args) + " deletes the protected branch " + strings.TrimPrefix(dst, "refs/heads/") + " on the remote"
		case force || plus:
			return show(c.Args) + " force-pushes the protected branch " + strings.TrimPrefix(dst, "refs/heads/")
		}
	}
	return ""
}

// headBranch reads the current branch from the repository that holds dir:
// .git/HEAD, or the HEAD of the folder a .git file points to (worktrees).
func headBranch(dir string) (string, bool) {
	if dir == "" || !filepath.IsAbs(dir) {
		return "", false
	}
	for d, i := filepath.Clean(dir), 0; i < 64; i++ {
		gitPath := filepath.Join(d, ".git")
		if st, err := os.Stat(gitPath); err == nil {
			if !st.IsDir() {
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
				gitPath = target
			}
			head, err := readHead(filepath.Join(gitPath, "HEAD"), 4096)
			if err != nil {
				return "", false
			}
			ref, ok := strings.CutPrefix(strings.TrimSpace(head), "ref: refs/heads/")
			return ref, ok // a detached HEAD is no branch
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
	return "", false
}
