package shellcmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVariablesAsBashRunsThem runs lines in bash, with rm, cat and git
// replaced by a program that records its arguments, and holds the reader
// to what bash ran: every command bash ran with the variables the line
// sets is among the reader's commands. (The reader may read more: where
// the line may or may not set a variable, it reads each value.) bash runs
// restricted (no /, no output redirections, no cd) with only the stubs on
// its PATH, and each line under a time bound.
func TestVariablesAsBashRunsThem(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	stubs := filepath.Join(dir, "bin")
	require.NoError(t, os.Mkdir(stubs, 0o755))
	rec := "#!/bin/sh\n{ for a in \"${0##*/}\" \"$@\"; do printf '%s\\000' \"$a\"; done; printf '\\001'; } >> \"$LOG\"\n"
	for _, name := range []string{"rm", "cat", "git"} {
		require.NoError(t, os.WriteFile(filepath.Join(stubs, name), []byte(rec), 0o755))
	}
	require.NoError(t, os.Symlink(bash, filepath.Join(stubs, "bash")))
	for _, name := range []string{"tee", "dirname"} { // tee writes the here-document's script
		p, err := exec.LookPath(name)
		require.NoError(t, err)
		require.NoError(t, os.Symlink(p, filepath.Join(stubs, name)))
	}
	// bash's $PWD is the folder as the system names it, links resolved.
	cwd, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	for _, line := range []string{
		`x=/; rm -rf $x`,
		`x=/ ; rm -rf "$x"`,
		`a=rm; $a -rf /`,
		`a=/; b=$a; rm -rf ${b}`,
		`a=/ b=$a; rm -rf $b`,
		`x=/; x+=usr; rm -rf $x`,
		`x=/usr/; rm -rf ${x%/} ${x:-a} ${x#/}`,
		`export x=/; rm -rf $x`,
		`x="/ /tmp"; rm -rf $x`,
		`x="/ /tmp"; rm -rf "$x"`,
		`x=" / "; rm -rf $x/a`,
		`IFS=,; x=rm,-rf,/; $x`,
		`IFS=:; x="a:b c"; cat $x "$x"`,
		`x=; rm -rf $x /tmp/a`,
		`for d in /usr /tmp; do rm -rf "$d"; done`,
		`for d in /{usr,etc}; do rm -rf $d; done`,
		`for d in a b; do for e in 1 2; do rm $d$e; done; done`,
		`if true; then x=/; fi; rm -rf $x`,
		`x=a; true && x=/; rm -rf $x`,
		`x=a; false && x=/; rm -rf $x`,
		`f(){ x=/; }; f; rm -rf $x`,
		`x=/; (x=tmp); rm -rf $x`,
		`x=/; cat </dev/null | x=tmp; rm -rf $x`,
		`x=/; eval 'rm -rf $x'`,
		`x=/ bash -c 'rm -rf $x'`,
		`export x=/; bash -c 'rm -rf $x'`,
		`x=/; bash -c "rm -rf $x"`,
		`x=/ true; rm -rf $x`,
		`set -- rm -rf /; "$@"`,
		`set -- a "b c"; cat "$@" "$*" $1 $2`,
		`a=(rm -rf /); "${a[@]}"`,
		`a=(/tmp /); rm -rf "${a[1]}" $a`,
		`a=(x "/ y"); rm -rf "${a[*]}" ${a[@]}`,
		`rm -rf "$(echo /)" $(printf '/ /tmp')`,
		`printf -v x '%s/%s' / usr; rm -rf $x`,
		`bash -c 'rm -rf "$1" "$0"' _ /`,
		`b=main; git push -f origin $b`,
		`c="git push --force"; $c origin main`,
		// The folder the line runs in, and what the line makes of it.
		`rm -rf ${PWD%/*} "$(dirname "$PWD")" "$(dirname "$(pwd)")"`,
		`x=$(pwd); rm -rf "${x%/*}/y" ${PWD%/*/*}`,
		`rm -rf ~+/a $PWD/b "$(pwd)"`,
		`rm -rf $(dirname /usr/lib/) $(dirname usr) $(dirname //)`,
		// Scripts the line writes: bash unrestricted, in the test's
		// folder, every program it can reach a stub or a builtin.
		`+echo 'rm -rf /' > x.sh && bash x.sh`,
		`+printf 'rm -rf ~\n' > c.sh; . ./c.sh`,
		`+echo 'x=/' > env.sh; echo 'rm -rf $x' >> env.sh; source env.sh`,
		"+tee run.sh <<'EOF'\nrm -rf /\nEOF\nbash < run.sh",
	} {
		restricted := !strings.HasPrefix(line, "+")
		line = strings.TrimPrefix(line, "+")
		t.Run(line, func(t *testing.T) {
			log := filepath.Join(dir, "log")
			_ = os.Remove(log)
			cmd := exec.Command(bash, "-c", line)
			if restricted {
				cmd = exec.Command(bash, "-r", "-c", line)
			}
			cmd.Env = []string{"PATH=" + stubs, "LOG=" + log, "HOME=/home/u"}
			cmd.Dir = dir
			cmd.WaitDelay = time.Second
			done := make(chan error, 1)
			go func() { done <- cmd.Run() }()
			select {
			case <-done:
			case <-time.After(time.Minute):
				_ = cmd.Process.Kill()
				t.Fatal("bash did not end")
			}
			data, _ := os.ReadFile(log)
			cs, err := CommandsIn(line, cwd)
			require.NoError(t, err)
			var read [][]string
			for _, c := range cs {
				read = append(read, c.Args)
				// The line's own variables aside, bash runs with none
				// set: a word known only at run time reads empty.
				var unset []string
				for i, u := range c.Unset {
					if u != "" || !c.Dynamic[i] {
						unset = append(unset, u)
					}
				}
				read = append(read, unset)
				// ~ and $HOME stay as written: the policies know them.
				home := make([]string, len(c.Args))
				for i, a := range c.Args {
					if a == "~" || strings.HasPrefix(a, "~/") {
						a = "/home/u" + a[1:]
					}
					home[i] = strings.ReplaceAll(a, "$HOME", "/home/u")
				}
				read = append(read, home)
			}
			ran := 0
			for _, rec := range strings.Split(string(data), "\x01") {
				if rec == "" {
					continue
				}
				args := strings.Split(strings.TrimSuffix(rec, "\x00"), "\x00")
				ran++
				assert.True(t, slices.ContainsFunc(read, func(r []string) bool { return slices.Equal(r, args) }),
					"bash ran %q; the reader read %q", args, read)
			}
			assert.NotZero(t, ran, "bash ran no recorded command")
		})
	}
}
