package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGitDiscard(t *testing.T) {
	runGitCases(t, "hookshim/git-discard", []gitCase{
		// reset
		{line: "git reset --hard", want: deny},
		{line: "git reset --hard HEAD~3", want: deny},
		{line: "git reset --h", want: deny}, // the one long option of git reset that starts with h
		{line: "git reset --har origin/main", want: deny},
		{line: "git reset --merge", want: deny},
		{line: "git reset --soft --hard", want: deny},
		{line: "git reset -q --hard", want: deny},
		{line: "git reset --soft HEAD~1"},
		{line: "git reset --mixed"},
		{line: "git reset"},
		{line: "git reset --keep HEAD~1"},
		{line: "git reset --hard --no-hard"},
		{line: "git reset --m"}, // ambiguous: mixed or merge
		{line: "git reset -- --hard"},
		{line: "git reset HEAD --hard.txt"},
		// clean
		{line: "git clean -f", want: deny},
		{line: "git clean -fd", want: deny},
		{line: "git clean -fdx", want: deny},
		{line: "git clean -xdf", want: deny},
		{line: "git clean -d --force", want: deny},
		{line: "git clean --forc", want: deny},
		{line: "git clean -ff -d", want: deny},
		{line: "git clean -i", want: deny},
		{line: "git clean -e '*.log' -f", want: deny},
		{line: "git -c clean.requireForce=false clean -d", want: deny},
		{line: "git clean -n"},
		{line: "git clean -nd"},
		{line: "git clean -fdn"},
		{line: "git clean --dry-run -f"},
		{line: "git clean -d"},
		{line: "git clean -f --no-force"},
		{line: "git clean -e f"}, // -e takes the next word: f is a pattern
		{line: "git -c clean.requireForce=true clean -d"},
		// checkout
		{line: "git checkout -- src/app.go", want: deny},
		{line: "git checkout -- .", want: deny},
		{line: "git checkout .", want: deny},
		{line: "git checkout ./src", want: deny},
		{line: "git checkout '*.go'", want: deny},
		{line: "git checkout :/", want: deny},
		{line: "git checkout HEAD -- a.txt", want: deny},
		{line: "git checkout main a.txt", want: deny},
		{line: "git checkout a.txt b.txt", want: deny},
		{line: "git checkout --theirs -- a.txt", want: deny},
		{line: "git checkout -f", want: deny},
		{line: "git checkout --force main", want: deny},
		{line: "git checkout -fb x", want: deny},
		{line: "git checkout -p", want: deny},
		{line: "git checkout --pathspec-from-file=list.txt", want: deny},
		{line: "git checkout notes.txt", cwd: "repo", want: deny},
		{line: "git checkout src", cwd: "repo", want: deny},
		{line: "cd src && git checkout app.go", cwd: "repo", want: deny},
		{line: "git -C docs checkout index.md", cwd: "repo", want: deny},
		{line: "cd sub && git checkout -- ../notes.txt", cwd: "repo", want: deny},
		{line: "git checkout $X", want: ask},
		{line: "git checkout loose", cwd: "repo"},  // a branch and a file: git takes the branch
		{line: "git checkout packed", cwd: "repo"}, // the same, from packed-refs
		{line: "git checkout v1", cwd: "repo"},     // a tag and a file
		{line: "git checkout main", cwd: "repo"},
		{line: "git checkout nothere", cwd: "repo"},
		{line: "git checkout -b x"},
		{line: "git checkout -b x origin/x"},
		{line: "git checkout -B x"},
		{line: "git checkout --orphan gh-pages"},
		{line: "git checkout -t origin/feature"},
		{line: "git checkout --detach HEAD~2"},
		{line: "git checkout -d notes.txt", cwd: "repo"}, // -d: a commit to detach at, no path
		{line: "git checkout feature/x"},
		{line: "git checkout -"},
		{line: "git checkout"},
		{line: "git checkout main --"},
		// restore
		{line: "git restore src/app.go", want: deny},
		{line: "git restore .", want: deny},
		{line: "git restore -W a.txt", want: deny},
		{line: "git restore --worktree --staged a.txt", want: deny},
		{line: "git restore -SW a.txt", want: deny},
		{line: "git restore --source=HEAD~2 a.txt", want: deny},
		{line: "git restore -s main -- a.txt", want: deny},
		{line: "git restore --pathspec-from-file=list", want: deny},
		{line: "git restore --staged a.txt"},
		{line: "git restore -S ."},
		{line: "git restore --sta a.txt"},
		{line: "git restore"},
		// switch
		{line: "git switch --discard-changes main", want: deny},
		{line: "git switch --disc main", want: deny},
		{line: "git switch -f main", want: deny},
		{line: "git switch --force main", want: deny},
		{line: "git switch main"},
		{line: "git switch -c new"},
		{line: "git switch -c f main"}, // -c takes f as its value
		{line: "git switch --detach v1"},
		// stash
		{line: "git stash drop", want: deny},
		{line: "git stash drop stash@{2}", want: deny},
		{line: "git stash clear", want: deny},
		{line: "git stash -q drop"}, // git refuses: the action comes first
		{line: "git stash $ACTION", want: ask},
		{line: "git stash"},
		{line: "git stash push -m wip"},
		{line: "git stash pop"},
		{line: "git stash apply"},
		{line: "git stash list"},
		{line: "git stash show -p"},
		{line: "git stash -- drop"}, // stashes the path drop
		// branch
		{line: "git branch -D x", want: deny},
		{line: "git branch -df x", want: deny},
		{line: "git branch -fd x", want: deny},
		{line: "git branch -d -f x", want: deny},
		{line: "git branch --delete --force x", want: deny},
		{line: "git branch --del --forc x", want: deny},
		{line: "git branch --del --for x"}, // ambiguous: force or format
		{line: "git branch -d x"},
		{line: "git branch --delete x"},
		{line: "git branch -D -r origin/x"},
		{line: "git branch -f x HEAD~1"},
		{line: "git branch -M main"},
		{line: "git branch -a"},
		// worktree, submodule
		{line: "git worktree remove --force ../wt", want: deny},
		{line: "git worktree remove -f -f ../wt", want: deny},
		{line: "git worktree remove ../wt"},
		{line: "git worktree prune"},
		{line: "git worktree add ../wt -f"},
		{line: "git worktree $A ../wt", want: ask},
		{line: "git submodule deinit -f lib", want: deny},
		{line: "git submodule deinit --force --all", want: deny},
		{line: "git submodule --quiet update --force", want: deny},
		{line: "git submodule deinit --all"},
		{line: "git submodule update --init --recursive"},
		// what lost work is recovered from
		{line: "git reflog expire --expire=now --all", want: deny},
		{line: "git reflog expire --expire-unreachable=now --all", want: deny},
		{line: "git reflog expire --expire 1.hour.ago --all", want: deny},
		{line: "git reflog delete HEAD@{1}", want: deny},
		{line: "git gc --prune=now", want: deny},
		{line: "git gc --prune=all", want: deny},
		{line: "git prune", want: deny},
		{line: "git prune --expire now", want: deny},
		{line: "git reflog"},
		{line: "git reflog show"},
		{line: "git reflog expire --expire=never --all"},
		{line: "git reflog expire --dry-run --expire=now --all"},
		{line: "git gc"},
		{line: "git gc --prune"},
		{line: "git gc --prune=never"},
		{line: "git gc --no-prune"},
		{line: "git prune -n"},
		// plumbing and history rewrites
		{line: "git update-ref -d refs/heads/x", want: deny},
		{line: "git update-ref -d HEAD", want: deny},
		{line: "git update-ref --stdin < cmds", want: ask},
		{line: "git update-ref refs/heads/x HEAD"},
		{line: "git update-ref -d refs/remotes/origin/gone"},
		{line: "git filter-branch --index-filter 'git rm --cached -r x' -- --all", want: deny},
		{line: "git filter-repo --path src/", want: deny},
		{line: "git-filter-repo --invert-paths --path secrets", want: deny},
		{line: "git filter-repo --analyze"},
		{line: "git filter-repo --dry-run --path x"},
		{line: "git filter-branch --help"},
		// global options, wrappers, the unreadable
		{line: "git -C /tmp/x reset --hard", want: deny},
		{line: "git --git-dir=.git --work-tree=. reset --hard", want: deny},
		{line: "git -c core.pager=less --no-pager clean -fd", want: deny},
		{line: "bash -c 'git stash drop'", want: deny},
		{line: "make && git reset --hard", want: deny},
		{line: "echo $(git reset --hard)", want: deny},
		{line: "git $cmd --hard", want: ask},
		{line: "git \"$@\"", want: ask},
		{line: "git -c alias.nuke='reset --hard' nuke", want: ask},
		{line: "git $cmd; git clean -f", want: deny},
		{line: "git reset --hard \"unclosed", want: deny}, // read up to the problem
		{line: "git status \"unclosed", want: ask},        // unreadable: unsure, whatever it runs
		{line: "git diff --name-only | xargs git checkout --", want: deny},
		{line: "git diff --name-only | xargs git checkout", want: ask},
		{line: "git diff --name-only | xargs git restore", want: deny},
		{line: "git diff --name-only | xargs git restore --staged"},
		{line: "find . -name '*.go' -exec git checkout {} \\;", want: ask},
		{line: "echo drop | xargs git stash", want: ask},
		{line: "git branch --merged | xargs git branch -d"},
		{line: "git branch | xargs git branch -D", want: deny},
		// look-alikes
		{line: "git log --force"},
		{line: "git status"},
		{line: "git diff --hard"},
		{line: "git commit -m 'git reset --hard'"},
		{line: "echo git reset --hard"},
		{line: "git add -f ."},
		{line: "git fetch --prune"},
		{line: "git remote prune origin"},
		{line: "git pull --rebase"},
		{line: "git --help reset --hard"},
		// allow
		{line: "git clean -fdx", with: `{"allow": ["clean"]}`},
		{line: "git stash drop", with: `{"allow": ["clean", "stash"]}`},
		{line: "git prune", with: `{"allow": ["gc"]}`},
		{line: "git reset --hard", with: `{"allow": ["clean"]}`, want: deny},
		{line: "git clean -f", with: `{"decision": "ask"}`, want: ask},
	})
}

// TestLinkedWorktree: in a linked worktree, HEAD is the worktree's own
// and the refs are the main repository's (commondir).
func TestLinkedWorktree(t *testing.T) {
	repo := gitRepo(t, "feature/x")
	wt := t.TempDir()
	admin := filepath.Join(repo, ".git", "worktrees", "wt")
	require.NoError(t, os.MkdirAll(admin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(admin, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(admin, "commondir"), []byte("../..\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+admin+"\n"), 0o644))
	for _, f := range []string{"loose", "notes.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(wt, f), []byte("x\n"), 0o644))
	}
	for _, c := range []struct {
		policy, line string
		want         decision.Kind
	}{
		{"hookshim/git-discard", "git checkout loose", none}, // the branch of the main repository
		{"hookshim/git-discard", "git checkout notes.txt", deny},
		{"hookshim/protected-branches", "git push -f", deny}, // the worktree is on main
		{"hookshim/protected-branches", "git -C " + repo + " push -f", none},
	} {
		p, err := Compile(c.policy, nil)
		require.NoError(t, err)
		ev := &event.Event{Name: event.BeforeToolExecute, Cwd: wt, ProjectDir: wt, Tool: &event.Tool{Name: event.ToolShell, Command: c.line}}
		out := p.Eval(ev)
		assert.Equal(t, c.want, out.Decision, "%s: %s", c.line, out.Reason)
	}
}

func TestGitDiscardParams(t *testing.T) {
	for with, msg := range map[string]string{
		`{"allow": ["stash-drop"]}`: `hookshim/git-discard: "stash-drop" is not a git subcommand this policy reports (known: reset, clean, `,
		`{"allow": "clean"}`:        `hookshim/git-discard: "allow" must be an array of strings`,
		`{"allowed": []}`:           `hookshim/git-discard: unknown parameter "allowed" (known: decision, unsure, allow)`,
	} {
		_, err := Compile("hookshim/git-discard", []byte(with))
		var pe *Error
		require.ErrorAs(t, err, &pe, with)
		assert.Contains(t, pe.Msg, msg)
	}
}

func TestScanGit(t *testing.T) {
	s := scanGit([]string{"-uf", "-o", "x", "origin", "--force-w=main", "--", "-f", "main"}, pushSyntax)
	assert.Equal(t, []gitOpt{{"set-upstream", ""}, {"force", ""}, {"push-option", "x"}, {"force-with-lease", "main"}}, s.opts)
	assert.Equal(t, []string{"origin", "-f", "main"}, s.ops)
	assert.Equal(t, 1, s.dashdash)
	assert.Equal(t, []string{"-f", "main"}, s.paths())
	assert.Equal(t, []string{"origin"}, s.before())
	assert.True(t, s.has("force"))

	s = scanGit([]string{"--end-of-options", "-f", "--", "x"}, pushSyntax)
	assert.Empty(t, s.opts)
	assert.Equal(t, []string{"-f", "x"}, s.ops)
	assert.Equal(t, 1, s.dashdash)

	s = scanGit([]string{"-ofoo", "--force", "--no-force"}, pushSyntax)
	assert.Equal(t, gitOpt{"push-option", "foo"}, s.opts[0])
	assert.False(t, s.has("force"))
}
