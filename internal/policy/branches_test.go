package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/shellcmd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitCase is one shell line and the answer a git policy gives it. In cwd,
// "repo" is a repository on main (gitRepo), "feature" one on feature/x,
// "" the folder /home/u/project, which does not exist.
type gitCase struct {
	line string
	want decision.Kind
	cwd  string
	with string
}

// gitRepo makes a repository whose HEAD is on branch, with a loose branch
// "loose", a packed branch and tag, and the files and folders the checkout
// cases name.
func gitRepo(t *testing.T, branch string) string {
	t.Helper()
	d := t.TempDir()
	for _, dir := range []string{".git/refs/heads", ".git/refs/tags", "src", "sub", "docs"} {
		require.NoError(t, os.MkdirAll(filepath.Join(d, filepath.FromSlash(dir)), 0o755))
	}
	for name, body := range map[string]string{
		".git/HEAD":              "ref: refs/heads/" + branch + "\n",
		".git/refs/heads/loose":  "0123456789012345678901234567890123456789\n",
		".git/packed-refs":       "# pack-refs with: peeled fully-peeled sorted\n0123456789012345678901234567890123456789 refs/heads/packed\n0123456789012345678901234567890123456789 refs/tags/v1\n",
		"notes.txt":              "x\n",
		"loose":                  "a file named like a branch\n",
		"packed":                 "a file named like a packed branch\n",
		"v1":                     "a file named like a tag\n",
		"src/app.go":             "package app\n",
		".git/refs/heads/.keep":  "",
		".git/refs/tags/.keep":   "",
		"docs/index.md":          "# docs\n",
		"sub/.git":               "gitdir: ../.git\n",
		".git/refs/heads/main":   "0123456789012345678901234567890123456789\n",
		".git/refs/heads/master": "0123456789012345678901234567890123456789\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(d, filepath.FromSlash(name)), []byte(body), 0o644))
	}
	return d
}

func runGitCases(t *testing.T, name string, cases []gitCase) {
	t.Helper()
	dirs := map[string]string{"repo": gitRepo(t, "main"), "feature": gitRepo(t, "feature/x")}
	for _, c := range cases {
		t.Run(c.cwd+"/"+c.line+c.with, func(t *testing.T) {
			p, err := Compile(name, []byte(c.with))
			require.NoError(t, err)
			cwd := project
			if c.cwd != "" {
				cwd = dirs[c.cwd]
			}
			ev := &event.Event{Provider: "claude-code", Name: event.BeforeToolExecute, Cwd: cwd, ProjectDir: cwd,
				Tool: &event.Tool{Name: event.ToolShell, Command: c.line}}
			out := p.Eval(ev)
			assert.Equal(t, c.want, out.Decision, "reason: %s", out.Reason)
			if c.want == none {
				assert.True(t, out.Empty(), "answered %v: %s", out.Decision, out.Reason)
			} else {
				assert.Contains(t, out.Reason, "("+name+")")
			}
		})
	}
}

func TestProtectedBranches(t *testing.T) {
	runGitCases(t, "hookshim/protected-branches", []gitCase{
		// Forced pushes to a protected branch, every spelling.
		{line: "git push -f origin main", want: deny},
		{line: "git push origin main -f", want: deny},
		{line: "git push origin main --force", want: deny},
		{line: "git push --forc origin main"}, // ambiguous (force, force-with-lease, …): git refuses it
		{line: "git push --mir origin", want: deny},
		{line: "git push -uf origin main", want: deny},
		{line: "git push -fu origin master", want: deny},
		{line: "git push -vfq origin main", want: deny},
		{line: "git push --force-with-lease origin main", want: deny},
		{line: "git push --force-with-lease=main:abc123 origin main", want: deny},
		{line: "git push --force-w origin main", want: deny},
		{line: "git push --force-if-includes --force-with-lease origin main", want: deny},
		{line: "git push --force-i origin main"}, // --force-if-includes alone: git ignores it
		{line: "git push origin +main", want: deny},
		{line: "git push origin +HEAD:main", want: deny},
		{line: "git push origin +feature:refs/heads/main", want: deny},
		{line: "git push -f origin HEAD:main", want: deny},
		{line: "git push -f origin HEAD~3:main", want: deny},
		{line: "git push -f origin abc123:refs/heads/master", want: deny},
		{line: "git push -f origin heads/main", want: deny},
		{line: "git push -f origin main:", want: deny},
		{line: "git push -f origin feature x:main", want: deny},
		{line: "git push -o ci.skip -f origin main", want: deny},
		{line: "git push -fo ci.skip origin main", want: deny},
		{line: "git push --push-option ci.skip --force origin main", want: deny},
		{line: "git push --repo=origin -f origin develop", want: deny},
		{line: "git push -f origin trunk", want: deny},
		{line: "git push -f origin production", want: deny},
		{line: "git push -f origin release/1.2", want: deny},
		{line: "git push -f upstream main --follow-tags", want: deny},
		{line: "git push --no-force --force origin main", want: deny},
		{line: "git push --force --no-force-with-lease origin main", want: deny},
		// Deletes.
		{line: "git push origin --delete main", want: deny},
		{line: "git push origin -d main", want: deny},
		{line: "git push --del origin main", want: deny},
		{line: "git push origin :main", want: deny},
		{line: "git push origin :refs/heads/main", want: deny},
		{line: "git push origin --delete refs/heads/release/3", want: deny},
		// Every branch at once.
		{line: "git push --mirror origin", want: deny},
		{line: "git push --mirr origin", want: deny},
		{line: "git push --all --force origin", want: deny},
		{line: "git push --branches -f origin", want: deny},
		{line: "git push --all --prune origin", want: deny},
		{line: "git push --prune origin", want: deny},
		{line: "git push --prune origin 'refs/heads/*:refs/heads/*'", want: deny},
		{line: "git push -f origin 'refs/heads/*:refs/heads/*'", want: deny},
		{line: "git push origin '+refs/*:refs/*'", want: deny},
		{line: "git push origin '+*:*'", want: deny},
		{line: "git push -f origin :", want: deny},
		{line: "git push origin '+refs/heads/rel*:refs/heads/rel*'", want: deny},
		{line: "git -c push.default=matching push -f", want: deny},
		{line: "git -c remote.origin.mirror=true push origin", want: deny},
		{line: "git -c remote.origin.push=+refs/heads/main:refs/heads/main push origin", want: deny},
		// The current branch.
		{line: "git push -f", cwd: "repo", want: deny},
		{line: "git push --force origin", cwd: "repo", want: deny},
		{line: "git push -f origin HEAD", cwd: "repo", want: deny},
		{line: "git push -f origin @", cwd: "repo", want: deny},
		{line: "git push -f origin feature:HEAD", cwd: "repo"},   // a branch named HEAD
		{line: "cd sub && git push -f", cwd: "repo", want: deny}, // a .git file pointing to the repository
		{line: "git checkout main && git push -f", cwd: "feature", want: deny},
		{line: "git switch develop && git push -f", cwd: "feature", want: deny},
		{line: "git checkout -b main && git push -f", cwd: "feature", want: deny},
		{line: "git switch -c develop && git push -f", cwd: "feature", want: deny},
		{line: "git -C sub push -f", cwd: "repo", want: deny},
		{line: "git push -f", cwd: "feature", want: none},
		{line: "git checkout - && git push -f", cwd: "feature", want: ask}, // the previous branch
		{line: "git checkout $B && git push -f", cwd: "feature", want: ask},
		{line: "git switch --detach && git push -f", cwd: "repo", want: none},
		{line: "git switch fix && git push -f", cwd: "repo", want: none},
		{line: "git checkout loose && git push -f", cwd: "repo", want: none},
		{line: "git checkout notes.txt && git push -f", cwd: "repo", want: deny}, // paths: still on main
		{line: "git checkout . && git push -f", cwd: "repo", want: deny},
		{line: "git checkout fix && git push -f", want: ask}, // the folder is not a repository here
		{line: "git checkout main && git push -f", want: deny},
		{line: "git checkout main -- a.txt && git push -f", cwd: "feature", want: none}, // paths: no switch
		{line: "git -C $D push -f", cwd: "repo", want: ask},
		{line: "GIT_DIR=$X git push -f", cwd: "repo", want: ask},
		{line: "git --git-dir=$X push -f", cwd: "repo", want: ask},
		{line: "git push -f", want: ask},
		{line: "cd $DIR && git push -f", want: ask},
		{line: "git push -f origin HEAD", want: ask},
		{line: "git -c push.default=upstream push -f", cwd: "feature", want: ask},
		// Resets on a protected branch.
		{line: "git reset --hard HEAD~1", cwd: "repo", want: deny},
		{line: "git reset --har HEAD~1", cwd: "repo", want: deny},
		{line: "git reset --merge ORIG_HEAD", cwd: "repo", want: deny},
		{line: "git reset --hard --soft HEAD~1", cwd: "repo", want: none}, // the last mode wins
		{line: "git reset --keep HEAD~1", cwd: "repo", want: none},
		{line: "git reset --hard", cwd: "feature", want: none},
		{line: "git checkout main && git reset --hard", cwd: "feature", want: deny},
		// Global options, wrappers, the unreadable.
		{line: "git -C /tmp -c core.editor=vi --no-pager push -f origin main", want: deny},
		{line: "git --git-dir=.git --work-tree=. push --force origin main", want: deny},
		{line: "git --namespace ns push -f origin main", want: deny},
		{line: "/usr/bin/git push -f origin main", want: deny},
		{line: "sudo -u ci git push -f origin main", want: deny},
		{line: "npm test && git push -f origin main", want: deny},
		{line: "git $sub -f origin main", want: ask},
		{line: "git -c alias.pf='push -f' pf origin main", want: ask},
		{line: "git -c alias.pf='push -f' pf origin main; git push -f origin main", want: deny},
		{line: "git push -f origin $BRANCH", want: ask},
		{line: "git push -f origin main \"unclosed", want: deny}, // read up to the problem
		{line: "git status \"unclosed", want: ask},               // unreadable: unsure, whatever it runs
		{line: "echo main | xargs git push -f origin", want: ask},
		{line: "echo x | xargs git push origin --delete", want: ask},
		{line: "echo x | xargs git push -f origin main", want: deny},
		{line: "echo x | xargs git push origin"},
		{line: "git push -f origin \"$(git branch --show-current)\"", want: ask},
		// Look-alikes.
		{line: "git push origin main"},
		{line: "git push origin HEAD:main"},
		{line: "git push -u origin main"},
		{line: "git push --all origin"},
		{line: "git push --tags -f origin"},
		{line: "git push -f origin v1.0:refs/tags/v1.0"},
		{line: "git push -f origin refs/notes/main"},
		{line: "git push --force origin feature"},
		{line: "git push -f origin main:feature"},
		{line: "git push -f origin mainline"},
		{line: "git push -f origin release-2"},
		{line: "git push -f origin '+refs/heads/feature/*:refs/heads/feature/*'"},
		{line: "git push -f origin 'refs/tags/*:refs/tags/*'"},
		{line: "git push origin 'refs/heads/*:refs/heads/*'"}, // not forced: fast-forwards only
		{line: "git push origin --delete feature"},
		{line: "git push origin :feature"},
		{line: "git push -n -f origin main"},
		{line: "git push --dry-run --mirror origin"},
		{line: "git push --force --no-force origin main"},
		{line: "git push --f origin main"}, // ambiguous: git refuses it
		{line: "git push --fo origin main"},
		{line: "git push origin $BRANCH"},
		{line: "git log --force main"},
		{line: "git fetch -f origin main:main"},
		{line: "git pull --force origin main"},
		{line: "git --help push -f origin main"},
		{line: "git --version push -f origin main"},
		{line: "echo git push -f origin main"},
		{line: "git commit -m 'git push -f origin main'"},
		{line: "git push -f origin main", with: `{"branches": ["prod", "release/*"]}`},
		{line: "git push -f origin release/1", with: `{"branches": ["prod", "release/*"]}`, want: deny},
		{line: "git push -f origin prod", with: `{"branches": ["prod"]}`, want: deny},
		{line: "git push -f origin '+refs/heads/re*:refs/heads/re*'", with: `{"branches": ["release/*"]}`, want: deny},
		{line: "git push -f origin '+refs/heads/feat/*:refs/heads/feat/*'", with: `{"branches": ["release/*"]}`},
	})
}

func TestGlobTouches(t *testing.T) {
	g := compileGlobs([]string{"main", "release/*"})
	for dst, want := range map[string]bool{
		"refs/heads/*":         true,
		"*":                    true,
		"refs/*":               true,
		"refs/heads/ma*":       true,
		"refs/heads/*n":        true,
		"refs/heads/rel*":      true,
		"refs/heads/release/*": true,
		"refs/heads/feature/*": false,
		"refs/heads/*x":        true, // release/ax
		"refs/heads/f*x":       false,
		"refs/tags/*":          false,
		"heads/m*":             true,
		"refs/heads/main/*":    false,
	} {
		assert.Equal(t, want, globTouches(dst, g), dst)
	}
}

func cmdOf(args ...string) shellcmd.Command {
	return shellcmd.Command{Args: args, Parent: -1, InArg: -1}
}

func TestGitOf(t *testing.T) {
	for _, c := range []struct {
		args      []string
		sub, dir  string
		config    []string
		repoKnown bool
	}{
		{[]string{"git", "status"}, "status", "/w", nil, true},
		{[]string{"git", "-C", "a", "-C", "b", "push"}, "push", "/w/a/b", nil, true},
		{[]string{"git", "-C", "/x", "push"}, "push", "/x", nil, true},
		{[]string{"git", "-C", "", "push"}, "push", "/w", nil, true},
		{[]string{"git", "-C", "$D", "push"}, "push", "", nil, true},
		{[]string{"git", "-c", "a.b=c", "--config-env", "x=Y", "push"}, "push", "/w", []string{"a.b=c"}, true},
		{[]string{"git", "--git-dir", "$G", "push"}, "push", "/w", nil, false},
		{[]string{"git", "-p", "--bare", "--no-optional-locks", "log"}, "log", "/w", nil, true},
		{[]string{"git-filter-repo", "--analyze"}, "filter-repo", "/w", nil, true},
		{[]string{"git", "--help", "push"}, "", "", nil, true},
		{[]string{"git", "-C"}, "", "", nil, true},
		{[]string{"gitk", "push"}, "", "", nil, true},
	} {
		g := gitOf(cmdOf(c.args...), "/w")
		assert.Equal(t, c.sub, g.sub, c.args)
		if c.sub == "" {
			continue
		}
		assert.Equal(t, c.dir, g.dir, c.args)
		assert.Equal(t, c.config, g.config, c.args)
		assert.Equal(t, c.repoKnown, !g.repoUnknown, c.args)
	}
}
