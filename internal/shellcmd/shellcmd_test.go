package shellcmd

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cmd is a compact expectation: argv, wrapper chain, sudo.
type cmd struct {
	args string // words joined by |
	via  string // joined by ,
	sudo bool
}

func summary(cs []Command) []cmd {
	out := make([]cmd, 0, len(cs))
	for _, c := range cs {
		out = append(out, cmd{strings.Join(c.Args, "|"), strings.Join(c.Via, ","), c.Sudo})
	}
	return out
}

func TestCommands(t *testing.T) {
	tests := []struct {
		line string
		want []cmd
	}{
		{"ls -la", []cmd{{"ls|-la", "", false}}},
		{"a && rm -rf /", []cmd{{"a", "", false}, {"rm|-rf|/", "", false}}},
		{"a||b;c&d|e", []cmd{{"a", "", false}, {"b", "", false}, {"c", "", false}, {"d", "", false}, {"e", "", false}}},
		{"echo 'rm -rf /'", []cmd{{"echo|rm -rf /", "", false}}},
		{`echo "a; rm -rf /"`, []cmd{{"echo|a; rm -rf /", "", false}}},
		{`git commit -m "rm -rf / && x"`, []cmd{{"git|commit|-m|rm -rf / && x", "", false}}},
		{"bash -c 'cd x; rm -rf ~'", []cmd{{"cd|x", "bash -c", false}, {"rm|-rf|~", "bash -c", false}}},
		{`sh -lc "rm -rf /etc"`, []cmd{{"rm|-rf|/etc", "sh -c", false}}},
		{`bash -o pipefail -c 'rm -r /'`, []cmd{{"rm|-r|/", "bash -c", false}}},
		{`zsh -c -- 'rm x'`, []cmd{{"rm|x", "zsh -c", false}}},
		{"bash script.sh -c x", []cmd{{"bash|script.sh|-c|x", "", false}}},
		{`bash -c "bash -c 'rm -rf /'"`, []cmd{{"rm|-rf|/", "bash -c,bash -c", false}}},
		{"sudo rm -rf /", []cmd{{"rm|-rf|/", "sudo", true}}},
		{"sudo -E -u root -- rm x", []cmd{{"rm|x", "sudo", true}}},
		{"sudo -u alice rm x", []cmd{{"rm|x", "sudo", false}}},
		{"doas rm x", []cmd{{"rm|x", "doas", true}}},
		{"sudo -v", []cmd{{"sudo|-v", "", false}}},
		{"FOO=1 BAR='a b' rm x", []cmd{{"rm|x", "", false}}},
		{"env -i -u X A=1 rm x", []cmd{{"rm|x", "env", false}}},
		{"env -S 'rm -rf /'", []cmd{{"rm|-rf|/", "env", false}}},
		{"nice -n 10 ionice -c3 nohup timeout -s KILL 5 stdbuf -oL rm x", []cmd{{"rm|x", "nice,ionice,nohup,timeout,stdbuf", false}}},
		{"nice -5 rm x", []cmd{{"rm|x", "nice", false}}},
		{"time -p exec rm x", []cmd{{"rm|x", "time,exec", false}}},
		{"command rm x", []cmd{{"rm|x", "command", false}}},
		{"command -v rm", []cmd{{"command|-v|rm", "", false}}},
		{"find . -name '*.o' | xargs -0 -n 1 rm -f", []cmd{{"find|.|-name|*.o", "", false}, {"rm|-f", "xargs", false}}},
		{"echo / | xargs -J {} rm -rf {}", []cmd{{"echo|/", "", false}, {"rm|-rf|{}", "xargs", false}}}, // BSD's -J takes a value
		// Programs that run the command they are given.
		{"pkexec rm -rf /", []cmd{{"rm|-rf|/", "pkexec", true}}},
		{"pkexec --user alice rm x", []cmd{{"rm|x", "pkexec", false}}},
		{"run0 -D / rm -rf x", []cmd{{"rm|-rf|x", "run0", true}}},
		{"systemd-run --user -p MemoryMax=1G --unit x rm -rf ~", []cmd{{"rm|-rf|~", "systemd-run", false}}},
		{"strace -f -o /tmp/t rm -rf /", []cmd{{"rm|-rf|/", "strace", false}}},
		{"ltrace -e malloc rm x", []cmd{{"rm|x", "ltrace", false}}},
		{"unshare -r --map-user 0 rm x", []cmd{{"rm|x", "unshare", false}}},
		{"nsenter -t 1 -m -u rm x", []cmd{{"rm|x", "nsenter", false}}},
		{"firejail --noprofile rm x", []cmd{{"rm|x", "firejail", false}}},
		{"setpriv --reuid=0 rm x", []cmd{{"rm|x", "setpriv", false}}},
		{"faketime '2020-01-01' rm x", []cmd{{"rm|x", "faketime", false}}},
		{"xvfb-run -a -s '-screen 0 1x1x8' rm x", []cmd{{"rm|x", "xvfb-run", false}}},
		{"entr -r rm x", []cmd{{"rm|x", "entr", false}}},
		{"entr -s 'rm -rf /'", []cmd{{"rm|-rf|/", "entr -s", false}}},
		{"sg wheel -c 'rm -rf /'", []cmd{{"rm|-rf|/", "sg -c", false}}},
		{"sg wheel rm x", []cmd{{"rm|x", "sg", false}}},
		{"gdb -batch -ex run --args rm -rf /", []cmd{{"rm|-rf|/", "gdb", false}}},
		{"screen -dmS x rm -rf ~", []cmd{{"rm|-rf|~", "screen", false}}},
		{"screen -S x -X quit", []cmd{{"screen|-S|x|-X|quit", "", false}}},
		{"tmux new -d -s x 'rm -rf ~'", []cmd{{"rm|-rf|~", "tmux new", false}}},
		{"tmux split-window -h rm -rf ~", []cmd{{"rm|-rf|~", "tmux split-window", false}}},
		{"tmux ls", []cmd{{"tmux|ls", "", false}}},
		{"echo 'rm -rf /' | at now", []cmd{{"echo|rm -rf /", "", false}, {"rm|-rf|/", "at -s", false}}},
		{"at now + 1 hour <<< 'rm -rf ~'", []cmd{{"rm|-rf|~", "at -s", false}}},
		{"at -l", []cmd{{"at|-l", "", false}}},
		{`ssh localhost "rm -rf ~"`, []cmd{{"rm|-rf|~", "ssh localhost", false}}},
		{"ssh -p 22 me@127.0.0.1 rm -rf /", []cmd{{"rm|-rf|/", "ssh me@127.0.0.1", false}}},
		{"ssh build.example.com rm -rf /tmp/x", []cmd{{"ssh|build.example.com|rm|-rf|/tmp/x", "", false}}},
		{`find / -exec rm -rf {} \;`, []cmd{{"find|/|-exec|rm|-rf|{}|;", "", false}, {"rm|-rf|{}", "find -exec", false}}},
		{"eval 'rm -rf' /", []cmd{{"rm|-rf|/", "eval", false}}},
		{"if true; then rm -rf /; fi", []cmd{{"true", "", false}, {"rm|-rf|/", "", false}}},
		{"{ rm -rf /; }", []cmd{{"rm|-rf|/", "", false}}},
		{"(cd / && rm -rf *)", []cmd{{"cd|/", "()", false}, {"rm|-rf|*", "()", false}}},
		{"cd x\nrm -rf /", []cmd{{"cd|x", "", false}, {"rm|-rf|/", "", false}}},
		{"rm -rf \\\n  /", []cmd{{"rm|-rf|/", "", false}}},
		{"a &&\n  b", []cmd{{"a", "", false}, {"b", "", false}}},
		{"echo a # ; rm -rf /\nls", []cmd{{"echo|a", "", false}, {"ls", "", false}}},
		{"git commit -m \"one\ntwo; rm -rf /\"", []cmd{{"git|commit|-m|one\ntwo; rm -rf /", "", false}}},
		{"cat <<EOF > f\nrm -rf /\nEOF\necho done", []cmd{{"cat", "", false}, {"echo|done", "", false}}},
		{"cat <<-'END'\n\trm -rf /\n\tEND\nls", []cmd{{"cat", "", false}, {"ls", "", false}}},
		{"cat <<EOF | sh\nrm -rf /\nEOF", []cmd{{"cat", "", false}, {"rm|-rf|/", "sh -s", false}}},
		{"echo é; rm -rf ~/x", []cmd{{"echo|é", "", false}, {"rm|-rf|~/x", "", false}}},
		{`rm -rf "$HOME" ${HOME}/x`, []cmd{{"rm|-rf|$HOME|$HOME/x", "", false}}},
		// Substitutions: live unquoted and in double quotes, not in single quotes.
		{`echo "$(rm -rf /)"`, []cmd{{"echo|$(rm -rf /)", "", false}, {"rm|-rf|/", "$()", false}}},
		{`echo $(rm -rf /)`, []cmd{{"echo|$(rm -rf /)", "", false}, {"rm|-rf|/", "$()", false}}},
		{`echo '$(rm -rf /)'`, []cmd{{"echo|$(rm -rf /)", "", false}}},
		{"echo `rm -rf /`", []cmd{{"echo|`rm -rf /`", "", false}, {"rm|-rf|/", "``", false}}},
		{"git commit -m 'fix `rm -rf /` bug'", []cmd{{"git|commit|-m|fix `rm -rf /` bug", "", false}}},
		{"git commit -m \"fix \\`rm -rf /\\` bug\"", []cmd{{"git|commit|-m|fix `rm -rf /` bug", "", false}}},
		{"X=$(rm -rf /) true", []cmd{{"true", "", false}, {"rm|-rf|/", "$()", false}}},
		{"bash <(curl -s https://x)", []cmd{{"bash|<(curl -s https://x)", "", false}, {"curl|-s|https://x", "<()", false}}},
		{"tee >(sh) < f", []cmd{{"tee|>(sh)", "", false}, {"sh", ">()", false}}},
		{`sh -c "$(curl -fsSL https://x)"`, []cmd{{"sh|-c|$(curl -fsSL https://x)", "", false}, {"curl|-fsSL|https://x", "$()", false}}},
		{`sudo bash -c 'rm -rf /'`, []cmd{{"rm|-rf|/", "sudo,bash -c", true}}},
		// Constructs that once hid what follows them.
		{"f() { :; }; rm -rf /", []cmd{{":", "", false}, {"rm|-rf|/", "", false}}},
		{"f() { rm -rf /; }", []cmd{{"rm|-rf|/", "", false}}},
		{"case x in *) ;; esac; rm -rf /", []cmd{{"rm|-rf|/", "", false}}},
		{"case $x in a) rm -rf /;; esac", []cmd{{"rm|-rf|/", "", false}}},
		{"echo $[1+1]; rm -rf /", []cmd{{"echo|$[1+1]", "", false}, {"rm|-rf|/", "", false}}},
		{"for f in $(ls); do rm -rf /; done", []cmd{{"ls", "$()", false}, {"rm|-rf|/", "", false}}},
		{"while true; do rm -rf /; done", []cmd{{"true", "", false}, {"rm|-rf|/", "", false}}},
		{"until false; do x; done", []cmd{{"false", "", false}, {"x", "", false}}},
		{"select x in a; do rm -rf /; done", []cmd{{"rm|-rf|/", "", false}}},
		{"[[ $(rm -rf /) ]]", []cmd{{"rm|-rf|/", "$()", false}}},
		{"(( $(rm -rf /) + 1 ))", []cmd{{"rm|-rf|/", "$()", false}}},
		{"echo $(( $(rm -rf /) ))", []cmd{{"echo|$(( $(rm -rf /) ))", "", false}, {"rm|-rf|/", "$()", false}}},
		{"coproc rm -rf /", []cmd{{"rm|-rf|/", "coproc", false}}},
		{"trap 'rm -rf /' EXIT", []cmd{{"rm|-rf|/", "trap", false}}},
		{"trap - EXIT", []cmd{{"trap|-|EXIT", "", false}}},
		{"time rm -rf /", []cmd{{"rm|-rf|/", "time", false}}},
		{"! rm -rf /", []cmd{{"rm|-rf|/", "", false}}},
		{"rm -rf / &", []cmd{{"rm|-rf|/", "", false}}},
		{"export X=$(rm -rf /)", []cmd{{"export|X=$(rm -rf /)", "", false}, {"rm|-rf|/", "$()", false}}},
		// Quotes and expansions.
		{`$'\x72\x6d' -rf /`, []cmd{{"rm|-rf|/", "", false}}},
		{`$"rm" -rf /`, []cmd{{"rm|-rf|/", "", false}}},
		{`r\m -rf /`, []cmd{{"rm|-rf|/", "", false}}},
		{`"r"'m' -rf /`, []cmd{{"rm|-rf|/", "", false}}},
		{"{rm,-rf,/}", []cmd{{"rm|-rf|/", "", false}}},
		{"rm -rf /{usr,etc}", []cmd{{"rm|-rf|/usr|/etc", "", false}}},
		{"rm -rf /{a..c}", []cmd{{"rm|-rf|/a|/b|/c", "", false}}},
		{"rm -rf '/{usr,etc}'", []cmd{{"rm|-rf|/{usr,etc}", "", false}}},
		{"echo \\; rm x", []cmd{{"echo|;|rm|x", "", false}}},
		// Wrappers.
		{"env -C / rm -rf x", []cmd{{"rm|-rf|x", "env", false}}},
		{"env --chdir=/ -u X - rm x", []cmd{{"rm|x", "env", false}}},
		{"busybox rm -rf /", []cmd{{"rm|-rf|/", "busybox", false}}},
		{"toybox rm -rf /", []cmd{{"rm|-rf|/", "toybox", false}}},
		{"parallel rm -rf ::: /", []cmd{{"rm|-rf|/", "parallel", false}}},
		{"parallel rm -rf {} ::: a b", []cmd{{"rm|-rf|a", "parallel", false}, {"rm|-rf|b", "parallel", false}}},
		{"echo x | xargs bash -c", []cmd{{"echo|x", "", false}, {"bash|-c", "xargs", false}}},
		{"parallel ::: 'rm -rf /'", []cmd{{"rm|-rf|/", "parallel,parallel", false}}},
		{"watch rm -rf /", []cmd{{"rm|-rf|/", "watch", false}}},
		{"watch -n 5 'rm -rf /'", []cmd{{"rm|-rf|/", "watch", false}}},
		{"watch -x rm -rf /", []cmd{{"rm|-rf|/", "watch", false}}},
		{"caffeinate -i rm -rf /", []cmd{{"rm|-rf|/", "caffeinate", false}}},
		{"arch -arm64 rm -rf /", []cmd{{"rm|-rf|/", "arch", false}}},
		{"rtk git push -f origin main", []cmd{{"git|push|-f|origin|main", "rtk", false}}},
		{"arch -arch x86_64 -e A=1 rm -rf /", []cmd{{"rm|-rf|/", "arch", false}}},
		{"chrt -f 10 rm x", []cmd{{"rm|x", "chrt", false}}},
		{"chrt -p 10 123", []cmd{{"chrt|-p|10|123", "", false}}},
		{"taskset -c 0,1 rm x", []cmd{{"rm|x", "taskset", false}}},
		{"setsid -f rm x", []cmd{{"rm|x", "setsid", false}}},
		{"flock /tmp/l rm x", []cmd{{"rm|x", "flock", false}}},
		{"flock -w 3 /tmp/l -c 'rm -rf /'", []cmd{{"rm|-rf|/", "flock -c", false}}},
		{"unbuffer rm x", []cmd{{"rm|x", "unbuffer", false}}},
		{"script -qc 'rm -rf /' /dev/null", []cmd{{"rm|-rf|/", "script -c", false}}},
		{"su -c 'rm -rf /'", []cmd{{"rm|-rf|/", "su,su -c", true}}},
		{"su alice -c 'rm x'", []cmd{{"rm|x", "su,su -c", false}}},
		{"runuser -u root -- rm x", []cmd{{"rm|x", "runuser", true}}},
		{"exec -a foo rm x", []cmd{{"rm|x", "exec", false}}},
		{"builtin cd /", []cmd{{"cd|/", "builtin", false}}},
		{"timeout --signal=KILL 5s rm x", []cmd{{"rm|x", "timeout", false}}},
		{"timeout --sig KILL 5s rm x", []cmd{{"rm|x", "timeout", false}}},
		{"xargs -I{} -P 4 rm -rf {}", []cmd{{"rm|-rf|{}", "xargs", false}}},
		{"find -L / -delete", []cmd{{"find|-L|/|-delete", "", false}}},
		{"find . -execdir sh -c 'rm -rf \"$1\"' _ {} +", []cmd{{"find|.|-execdir|sh|-c|rm -rf \"$1\"|_|{}|+", "", false}, {"rm|-rf|{}", "find -exec,sh -c", false}}},
		// Programs fed to shells.
		{"bash -lc 'rm -rf /'", []cmd{{"rm|-rf|/", "bash -c", false}}},
		{"bash -ec 'rm -rf /'", []cmd{{"rm|-rf|/", "bash -c", false}}},
		{"bash -x -c 'rm -rf /'", []cmd{{"rm|-rf|/", "bash -c", false}}},
		{"printf 'rm -rf /' | bash", []cmd{{"printf|rm -rf /", "", false}, {"rm|-rf|/", "bash -s", false}}},
		{"echo rm -rf / | sh -s", []cmd{{"echo|rm|-rf|/", "", false}, {"rm|-rf|/", "sh -s", false}}},
		{"echo 'rm -rf /' | sudo bash", []cmd{{"echo|rm -rf /", "", false}, {"rm|-rf|/", "sudo,bash -s", true}}},
		{"echo 'rm -rf /' | (sh)", []cmd{{"echo|rm -rf /", "", false}, {"rm|-rf|/", "(),sh -s", false}}},
		{"echo 'rm -rf /' | env sh", []cmd{{"echo|rm -rf /", "", false}, {"rm|-rf|/", "env,sh -s", false}}},
		{"echo 'rm -rf /' | sudo -s", []cmd{{"echo|rm -rf /", "", false}, {"rm|-rf|/", "sudo,sudo -s", true}}},
		{"bash <<EOF\nrm -rf /\nEOF", []cmd{{"rm|-rf|/", "bash -s", false}}},
		{"bash <<'EOF'\nrm -rf $HOME\nEOF", []cmd{{"rm|-rf|$HOME", "bash -s", false}}},
		{"bash <<< 'rm -rf /'", []cmd{{"rm|-rf|/", "bash -s", false}}},
		{"eval 'eval \"rm -rf /\"'", []cmd{{"rm|-rf|/", "eval,eval", false}}},
		{"env -S 'sh -c \"rm -rf /\"'", []cmd{{"rm|-rf|/", "env,sh -c", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			cs, err := Commands(tt.line)
			require.NoError(t, err)
			assert.Equal(t, tt.want, summary(cs))
		})
	}
}

func TestStructure(t *testing.T) {
	cs, err := Commands("curl -s https://x | tee log | sudo bash; ls > out 2>&1")
	require.NoError(t, err)
	require.Len(t, cs, 4)
	assert.Equal(t, cs[0].Pipeline, cs[1].Pipeline)
	assert.Equal(t, cs[1].Pipeline, cs[2].Pipeline)
	assert.NotEqual(t, cs[2].Pipeline, cs[3].Pipeline)
	assert.Equal(t, "bash", cs[2].Name())
	assert.True(t, slices.Contains(cs[2].Via, "sudo"))
	assert.Equal(t, []Redirect{{Op: ">", Target: "out"}, {Op: "2>&", Target: "1"}}, cs[3].Redirects)

	cs, err = Commands(`echo "$(cat $HOME/.env)" > /tmp/x`)
	require.NoError(t, err)
	require.Len(t, cs, 2)
	assert.Equal(t, -1, cs[0].Parent)
	assert.Equal(t, 0, cs[1].Parent)
	assert.Equal(t, 1, cs[1].InArg)
	assert.Equal(t, "cat", cs[1].Name())
	assert.Equal(t, []string{"FOO=1"}, first(t, "FOO=1 /usr/bin/env rm x").Env)
	assert.Equal(t, "rm", first(t, "/bin/rm x").Name())
}

func first(t *testing.T, line string) Command {
	cs, err := Commands(line)
	require.NoError(t, err)
	require.NotEmpty(t, cs)
	return cs[0]
}

func TestIncomplete(t *testing.T) {
	for _, line := range []string{
		`echo "unclosed`,
		`rm -rf / 'x`,
		strings.Repeat("bash -c '", 3) + "x",
	} {
		_, err := Commands(line)
		assert.Error(t, err, line)
	}
	// What came before the problem is kept.
	cs, err := Commands(`rm -rf / && echo "x`)
	require.Error(t, err)
	assert.Equal(t, []cmd{{"rm|-rf|/", "", false}, {"echo", "", false}}, summary(cs))

	deep := "rm -rf /"
	for range maxDepth + 2 {
		deep = "eval " + shellQuote(deep)
	}
	_, err = Commands(deep)
	assert.ErrorContains(t, err, "nested too deep")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestLinear: many commands, long quoted words and deep nesting stay
// proportional to the input.
func TestLinear(t *testing.T) {
	for _, line := range []string{
		strings.Repeat("a;", 200000),
		"echo '" + strings.Repeat("x;", 200000) + "'",
		strings.Repeat("$(a) ", 50000),
		strings.Repeat("echo x | ", 50000) + "sh",
		strings.Repeat("cat <<E\nx\nE\n", 30000),
		strings.Repeat("a \\\n", 100000),
	} {
		start := time.Now()
		_, _ = Commands(line)
		assert.Less(t, time.Since(start), time.Minute, "%d bytes", len(line)) // only a hang fails on a loaded machine
	}
}

func FuzzCommands(f *testing.F) {
	for _, s := range []string{"a && rm -rf /", "bash -c 'x $(y) `z`'", "cat <<E\nx\nE", "(a|b) <(c) >(d)",
		"sudo -u x env A=1 -S 'q' nice -n 1 xargs -I{} sh -c '{}'", "echo \"$(a \"b\")\"", "\\\n", "find / -exec x ;",
		"x=/; for d in a $x; do c && y=$d$x; done; rm -rf ${y%/} \"$@\"; set -- a b; $*",
		"python3 -c \"import os; os.system('rm -rf /'); shutil.rmtree(['a', 'b'])\"", "IFS=,; x=a,b; $x",
		"echo 'rm -rf /' > x.sh; tmux new -d sh x.sh; at -f x.sh now; sg g -c 'sh -c \"rm $1\" _ /'",
		"perl <<E\nsystem('rm -rf /')\nE\nawk -F: 'BEGIN{system(\"rm -rf ~\")}'",
		"cd ..; x=$(pwd); rm -rf ${PWD%/*} \"$(dirname \"$(pwd)\")\" ~+/x ${x#/}",
		"docker run -it -v .:/s -w s --mount type=bind,src=/,dst=/h img sh -c 'cd /h && rm -rf *'; podman container run --entrypoint x i"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var cs []Command
		done := make(chan bool)
		// Half the lines are read told the folder they run in.
		dir := ""
		if len(line)%2 == 1 {
			dir = "/home/u/p"
		}
		go func() { cs, _ = CommandsIn(line, dir); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("HANG %q", line)
		}
		for i, c := range cs {
			if len(c.Dynamic) != len(c.Args) || len(c.Unset) != len(c.Args) {
				t.Fatalf("command %d: %d args, %d dynamic, %d unset", i, len(c.Args), len(c.Dynamic), len(c.Unset))
			}
			if c.Parent >= i {
				t.Fatalf("command %d: parent %d not before it", i, c.Parent)
			}
			if c.InArg >= 0 && (c.Parent < 0 || c.InArg >= len(cs[c.Parent].Args)) {
				t.Fatalf("command %d: in arg %d of parent %d", i, c.InArg, c.Parent)
			}
		}
	})
}

// TestDir: the folder each command runs in, cd scoped as bash scopes it.
func TestDir(t *testing.T) {
	tests := []struct {
		line string
		dirs []string // per command; "?" for unknown
	}{
		{"cd /tmp && rm -rf x", []string{"", "/tmp"}},
		{"(cd /tmp); rm -rf child", []string{"", ""}},
		{"cd /tmp && (rm -rf x)", []string{"", "/tmp"}},
		{"echo $(cd / ; ls); rm x", []string{"", "", "/", ""}},
		{"cd a; cd ../b; ls", []string{"", "a", "b"}},
		{"cd; ls", []string{"", "~"}},
		{"cd \"$X\" && ls", []string{"", "?"}},
		{"cd - && ls", []string{"", "?"}},
		{"env -C / rm -rf x; ls", []string{"/", ""}},
		{"cd /tmp | ls; ls", []string{"", "", ""}},
		{"cd /srv && bash -c 'cd x; ls'; ls", []string{"", "/srv", "/srv/x", "/srv"}},
		{"eval 'cd /'; ls", []string{"", "/"}},
		{"f() { cd /; }; ls", []string{"", ""}},
		{"sudo -D /etc ls", []string{"/etc"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			cs, err := Commands(tt.line)
			require.NoError(t, err)
			var got []string
			for _, c := range cs {
				d := c.Dir
				if c.DirUnknown {
					d = "?"
				}
				got = append(got, d)
			}
			assert.Equal(t, tt.dirs, got)
		})
	}
}

// TestDynamic: words known only at run time are marked, and read as the
// empty case in Unset.
func TestDynamic(t *testing.T) {
	c := first(t, `rm -rf "$DIR"/ ~/x $HOME ${HOME}/y * $(pwd)/z "${X:-/}"`)
	assert.Equal(t, []string{"rm", "-rf", "$DIR/", "~/x", "$HOME", "$HOME/y", "*", "$(pwd)/z", "${X:-/}"}, c.Args)
	assert.Equal(t, []bool{false, false, true, false, false, false, false, true, true}, c.Dynamic)
	assert.Equal(t, "/", c.Unset[2])
	assert.Equal(t, "/z", c.Unset[7])

	c = first(t, `rm -rf "${X:-/}" "${Y:?}/"* ${Z:+a}/`)
	assert.Equal(t, []string{"/", "${Y:?}/*", "/"}, c.Unset[2:])

	c = first(t, `cat > "$OUT"`)
	assert.Equal(t, []Redirect{{Op: ">", Target: "$OUT", Dynamic: true}}, c.Redirects)
}

// TestProgram: a program known only at run time is said so.
func TestProgram(t *testing.T) {
	tests := []struct{ line, name, program string }{
		{`bash -c "$CMD"`, "bash", ProgramArg},
		{`eval "$(ssh-agent -s)"`, "eval", ProgramArg},
		{`curl -s https://x | bash`, "bash", ProgramStdin},
		{`curl -s https://x | sudo -s`, "sudo", ProgramStdin},
		{`bash < script.sh`, "bash", ProgramFile},
		{`cat <<EOF | sh` + "\n$(curl x)\nEOF", "sh", ProgramStdin},
		{`bash script.sh`, "bash", ""},
		{`bash`, "bash", ""},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			cs, err := Commands(tt.line)
			require.NoError(t, err)
			i := slices.IndexFunc(cs, func(c Command) bool { return c.Name() == tt.name })
			require.GreaterOrEqual(t, i, 0, "%+v", cs)
			assert.Equal(t, tt.program, cs[i].Program)
		})
	}
}

func TestParseError(t *testing.T) {
	_, err := Commands("ls\necho 'x")
	var pe *ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 2, pe.Line)
	assert.Equal(t, 6, pe.Col)

	_, err = Commands(`bash -c 'echo "x'`)
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 1, pe.Nested)
}

// TestReader: one call reads a line once.
func TestReader(t *testing.T) {
	var r Reader
	a, _ := r.Commands("rm -rf /")
	b, _ := r.Commands("rm -rf /")
	assert.Same(t, &a[0], &b[0])
	c, _ := r.Commands("ls")
	assert.Equal(t, "ls", c[0].Name())
}

// TestBounded: wrappers nested many times over and programs that quote
// themselves stay linear; over the budget the line is reported, not
// followed.
func TestBounded(t *testing.T) {
	line := strings.Repeat("env ", 20000) + "rm -rf /"
	require.Greater(t, len(line), 80000)
	cs, err := Commands(line)
	require.NoError(t, err)
	assert.Equal(t, []string{"rm", "-rf", "/"}, cs[0].Args)
	assert.Len(t, cs[0].Via, 20000)

	// Each level doubles the quoting: the budget stops it.
	prog := "rm -rf /"
	for range 40 {
		prog = "bash -c " + shellQuote(prog)
		if len(prog) > 1<<20 {
			break
		}
	}
	_, err = Commands(prog)
	assert.ErrorContains(t, err, "nested")

	w := newWalker(line)
	w.program(line, &scope{parent: -1, inArg: -1, frame: &frame{}}, "")
	assert.Equal(t, budgetFactor*len(line)+budgetBase, w.budget, "the line itself costs no budget")
}

// TestVariables: a variable the line sets is read with its value; one it
// may or may not set, with each value it may hold and as known only at
// run time.
func TestVariables(t *testing.T) {
	tests := []struct {
		line string
		want []string // each command's words joined by |; "…" marks a dynamic one
	}{
		{`x=/; rm -rf $x`, []string{"rm|-rf|/"}},
		{`x=/ ; rm -rf "$x"`, []string{"rm|-rf|/"}},
		{`a=rm; $a -rf /`, []string{"rm|-rf|/"}},
		{`a=/; b=$a; rm -rf ${b}`, []string{"rm|-rf|/"}},
		{`a=/ b=$a; rm -rf $b`, []string{"rm|-rf|/"}},
		{`x=/; x+=usr; rm -rf $x`, []string{"rm|-rf|/usr"}},
		{`x=/usr/; rm -rf ${x%/} ${x:-a} ${y:-/etc}`, []string{"rm|-rf|/usr|/usr/|${y:-/etc}…"}},
		{`export x=/; rm -rf $x`, []string{"export|x=/", "rm|-rf|/"}},
		{`declare -i x=1; rm -rf /$x`, []string{"declare|-i|x=1", "rm|-rf|/$x…"}},
		// Field splitting: unquoted, the value's blanks split it; IFS too.
		{`x="/ /tmp"; rm -rf $x`, []string{"rm|-rf|/|/tmp"}},
		{`x="/ /tmp"; rm -rf "$x"`, []string{"rm|-rf|/ /tmp"}},
		{`IFS=,; x=rm,-rf,/; $x`, []string{"rm|-rf|/"}},
		{`x=; rm -rf $x /tmp/a`, []string{"rm|-rf|/tmp/a"}},
		{`x=; rm -rf "$x"`, []string{"rm|-rf|"}},
		// Loops: the body once for each word.
		{`for d in /usr /tmp; do rm -rf "$d"; done`, []string{"rm|-rf|/usr", "rm|-rf|/tmp"}},
		{`for d in /{usr,etc}; do rm -rf $d; done`, []string{"rm|-rf|/usr", "rm|-rf|/etc"}},
		{`for f in $(ls); do rm -rf $f; done`, []string{"ls", "rm|-rf|$f…"}},
		// What may or may not run: each value, and what it held before.
		{`if c; then x=/; fi; rm -rf $x`, []string{"c", "rm|-rf|/", "rm|-rf|$x…"}},
		{`x=a; c && x=/; rm -rf $x`, []string{"c", "rm|-rf|a", "rm|-rf|/"}},
		{`f(){ x=/; }; f; rm -rf $x`, []string{"f", "rm|-rf|/", "rm|-rf|$x…"}},
		{`x=build; read x; rm -rf /$x`, []string{"read|x", "rm|-rf|/build", "rm|-rf|/$x…"}},
		{`x=a; source env.sh; rm -rf $x`, []string{"source|env.sh", "rm|-rf|a", "rm|-rf|$x…"}},
		{`x=a; ((x++)); rm -rf $x`, []string{"rm|-rf|a", "rm|-rf|$x…"}},
		// Subshells and pipeline stages keep what they set.
		{`x=/; (x=tmp); rm -rf $x`, []string{"rm|-rf|/"}},
		{`x=/; echo | x=tmp; rm -rf $x`, []string{"echo", "rm|-rf|/"}},
		// The same shell reads them; another gets what is exported to it.
		{`x=/; eval 'rm -rf $x'`, []string{"rm|-rf|/"}},
		{`x=/ bash -c 'rm -rf $x'`, []string{"rm|-rf|/"}},
		{`env x=/ sh -c 'rm -rf $x'`, []string{"rm|-rf|/"}},
		{`x=/; bash -c 'rm -rf $x'`, []string{"rm|-rf|/", "rm|-rf|$x…"}},
		{`x=/; bash -c "rm -rf $x"`, []string{"rm|-rf|/"}},
		{`rm -rf "$PWD/.." ~+/../x`, []string{"rm|-rf|./..|./../x"}},
		{`cd /tmp && rm -rf $PWD`, []string{"cd|/tmp", "rm|-rf|."}},
		{`cd "$X" && rm -rf $PWD`, []string{"cd|$X…", "rm|-rf|$PWD…"}},
		{`printf -v x '%s/%s' / usr; rm -rf $x`, []string{"printf|-v|x|%s/%s|/|usr", "rm|-rf|//usr"}},
		// Arrays and the positional parameters: a word each.
		{`a=(rm -rf /); "${a[@]}"`, []string{"rm|-rf|/"}},
		{`a=(/tmp /); rm -rf "${a[1]}" $a`, []string{"rm|-rf|/|/tmp"}},
		{`a=(x "/ y"); rm -rf "${a[*]}"`, []string{"rm|-rf|x / y"}},
		{`set -- rm -rf /; "$@"`, []string{"set|--|rm|-rf|/", "rm|-rf|/"}},
		{`a[0]=/; rm -rf ${a[0]}`, []string{"rm|-rf|${a[0]}…"}},
		// A shell's -c program gets what follows it: $0, then $1 ….
		{`sh -c 'rm -rf $1' _ /`, []string{"rm|-rf|/"}},
		{`bash -c 'rm -rf "$@" "$0"' x / /usr`, []string{"rm|-rf|/|/usr|x"}},
		{`find / -exec sh -c 'rm -rf "$1"' _ {} \;`, []string{"find|/|-exec|sh|-c|rm -rf \"$1\"|_|{}|;", "rm|-rf|{}"}},
		{`ls | xargs sh -c 'rm -rf "$@"' _`, []string{"ls", "rm|-rf|$@…"}},
		// A program known only at run time given -c may be a shell.
		{`$SHELL -c 'rm -rf /'`, []string{"$SHELL|-c|rm -rf /…", "rm|-rf|/"}},
		{`"$BASH" -lc "x=/; rm -rf \$x"`, []string{"$BASH|-lc|x=/; rm -rf $x…", "rm|-rf|/"}},
		// A variable set for one command is not set in the line.
		{`x=/ true; rm -rf $x`, []string{"true", "rm|-rf|$x…"}},
		{`x=/ rm -rf $x`, []string{"rm|-rf|$x…"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			cs, err := Commands(tt.line)
			require.NoError(t, err)
			got := argLines(cs)
			assert.Equal(t, tt.want, got)
		})
	}
	cs, err := Commands(`x=/; rm -rf $x`)
	require.NoError(t, err)
	assert.Equal(t, "rm -rf $x", cs[0].Text, "the command as written, for a reason")
}

// argLines is each command's arguments joined by "|", and "…" after one
// that holds an expansion known only at run time.
func argLines(cs []Command) []string {
	var out []string
	for _, c := range cs {
		s := strings.Join(c.Args, "|")
		if slices.Contains(c.Dynamic, true) {
			s += "…"
		}
		out = append(out, s)
	}
	return out
}

// TestCommandsIn: told the folder the line runs in, the reader reads
// $PWD, ~+ and $(pwd) as it, so that what the line makes of them is read
// too; not told, as "." (TestVariables), and what is made of them is
// known only at run time.
func TestCommandsIn(t *testing.T) {
	tests := []struct {
		line string
		want []string // with the folder /home/dev/proj
		not  []string // with no folder
	}{
		{`rm -rf ${PWD%/*}`, []string{"rm|-rf|/home/dev"}, []string{"rm|-rf|${PWD%/*}…"}},
		{`rm -rf "${PWD%/*/*}"/x`, []string{"rm|-rf|/home/x"}, []string{"rm|-rf|${PWD%/*/*}/x…"}},
		{`rm -rf "$(dirname "$PWD")"`, []string{"rm|-rf|/home/dev", "dirname|/home/dev/proj"}, []string{"rm|-rf|$(dirname \"$PWD\")…", "dirname|."}},
		{`rm -rf "$(dirname "$(pwd)")"`, []string{"rm|-rf|/home/dev", "dirname|/home/dev/proj", "pwd"}, []string{"rm|-rf|$(dirname \"$(pwd)\")…", "dirname|$(pwd)…", "pwd"}},
		{`x=$(pwd); rm -rf ${x%/*}`, []string{"pwd", "rm|-rf|/home/dev"}, []string{"pwd", "rm|-rf|${x%/*}…"}},
		{`rm -rf $PWD ~+/build`, []string{"rm|-rf|/home/dev/proj|/home/dev/proj/build"}, []string{"rm|-rf|.|./build"}},
		// The folder the line changes to, and one it loses track of.
		{`cd .. && rm -rf ${PWD%/*}`, []string{"cd|..", "rm|-rf|/home"}, []string{"cd|..", "rm|-rf|${PWD%/*}…"}},
		{`cd /tmp/a && rm -rf "$(dirname $PWD)"`, []string{"cd|/tmp/a", "rm|-rf|/tmp", "dirname|/tmp/a"}, []string{"cd|/tmp/a", "rm|-rf|$(dirname $PWD)…", "dirname|."}},
		{`cd "$X" && rm -rf ${PWD%/*}`, []string{"cd|$X…", "rm|-rf|${PWD%/*}…"}, []string{"cd|$X…", "rm|-rf|${PWD%/*}…"}},
		{`PWD=/; rm -rf $PWD`, []string{"rm|-rf|/"}, []string{"rm|-rf|/"}},
		// dirname as POSIX has it; pwd -P resolves links it cannot see.
		{`rm -rf $(dirname /usr/lib/) $(dirname usr) $(dirname //)`, []string{"rm|-rf|/usr|.|/", "dirname|/usr/lib/", "dirname|usr", "dirname|//"}, nil},
		{`rm -rf "$(pwd -P)"`, []string{"rm|-rf|$(pwd -P)…", "pwd|-P"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			for _, dir := range []string{"/home/dev/proj", ""} {
				want := tt.want
				if dir == "" {
					if tt.not == nil {
						continue
					}
					want = tt.not
				}
				cs, err := CommandsIn(tt.line, dir)
				require.NoError(t, err)
				assert.Equal(t, want, argLines(cs), "in %q", dir)
			}
		})
	}
}

// TestContainerRun: what docker (podman, nerdctl) run runs is read, with
// the folders of this machine it binds and the folder it runs in there.
func TestContainerRun(t *testing.T) {
	type box struct {
		line, args, dir string
		mounts          []Mount
	}
	for _, tt := range []box{
		{`docker run --rm -v /:/host alpine rm -rf /host`, "rm|-rf|/host", "/", []Mount{{"/", "/host"}}},
		{`docker run -it -v "$HOME":/h -w /h alpine sh -c 'rm -rf ./*'`, "rm|-rf|./*", "/h", []Mount{{"$HOME", "/h"}}},
		{`podman run --mount type=bind,source=/etc,target=/e,readonly=false alpine rm -rf /e`, "rm|-rf|/e", "/", []Mount{{"/etc", "/e"}}},
		{`nerdctl container run --entrypoint rm -e A=1 img -rf /x`, "rm|-rf|/x", "/", nil},
		{`cd app && docker run -v .:/src -v data:/data -v /usr:/u:ro,z img make`, "make", "/", []Mount{{"app", "/src"}}},
		{`docker run -v "$(pwd)":/src -w src img sh -c 'cd sub && rm -rf *'`, "rm|-rf|*", "/src/sub", []Mount{{"/home/u/p", "/src"}}},
		{`docker run --device /dev/sda:/dev/xvda --device=/dev/sdb alpine mkfs.ext4 /dev/xvda`, "mkfs.ext4|/dev/xvda", "/", []Mount{{"/dev/sda", "/dev/xvda"}, {"/dev/sdb", "/dev/sdb"}}},
		{`docker run --privileged alpine nsenter -t 2 -m rm -rf /`, "rm|-rf|/", "/", nil},
		{`docker run --pid=host alpine nsenter rm -rf /`, "rm|-rf|/", "/", nil},
		{`docker run alpine nsenter -t 1 -m rm -rf /`, "rm|-rf|/", "/", nil},
	} {
		t.Run(tt.line, func(t *testing.T) {
			cs, err := CommandsIn(tt.line, "/home/u/p")
			require.NoError(t, err)
			i := slices.IndexFunc(cs, func(c Command) bool { return strings.Join(c.Args, "|") == tt.args })
			require.GreaterOrEqual(t, i, 0, "%q", argLines(cs))
			c := cs[i]
			require.NotNil(t, c.Container)
			assert.Equal(t, tt.dir, c.Dir)
			assert.Equal(t, tt.mounts, c.Container.Mounts)
			assert.Contains(t, c.Via, base(strings.Fields(strings.TrimPrefix(tt.line, "cd app && "))[0]))
		})
	}
	// The image's own substitutions run where the line runs, with or
	// without --entrypoint.
	for _, line := range []string{`docker run "$(cat img.txt)" ls`, `docker run --entrypoint ls "$(cat img.txt)" -l`} {
		cs, err := CommandsIn(line, "/home/u/p")
		require.NoError(t, err)
		i := slices.IndexFunc(cs, func(c Command) bool { return c.Name() == "cat" })
		require.GreaterOrEqual(t, i, 0, "%q: %q", line, argLines(cs))
		assert.Nil(t, cs[i].Container, "%q", line)
	}
	// nsenter into process 1 from a container that sees this machine's
	// processes runs what follows here, in a folder not known here.
	for _, line := range []string{
		`docker run --rm --privileged --pid=host alpine nsenter -t 1 -m -u -n -i -- rm -rf /`,
		`podman run --pid host -it fedora nsenter --target=1 --mount sh -c 'rm -rf /'`,
		`docker run --privileged -w /app img nsenter -t1 -a rm -rf /`,
	} {
		cs, err := CommandsIn(line, "/home/u/p")
		require.NoError(t, err)
		i := slices.IndexFunc(cs, func(c Command) bool { return strings.Join(c.Args, "|") == "rm|-rf|/" })
		require.GreaterOrEqual(t, i, 0, "%q: %q", line, argLines(cs))
		assert.Nil(t, cs[i].Container, "%q", line)
		assert.True(t, cs[i].DirUnknown, "%q", line)
	}
	// Not run here: another machine's daemon, or the image's own command.
	for _, line := range []string{`docker -H tcp://ci:2375 run -v /:/h img rm -rf /h`, `docker run -d -p 80:80 nginx`, `docker ps`} {
		cs, err := CommandsIn(line, "/home/u/p")
		require.NoError(t, err)
		for _, c := range cs {
			assert.Nil(t, c.Container, "%q: %q", line, c.Args)
		}
	}
}

// TestVariablesBounded: readings multiply with nested loops and nested
// substitutions; past the budget the line is unsure, never slow.
func TestVariablesBounded(t *testing.T) {
	// Loops over eight values each, and a command whose substitutions
	// nest as deep, each reading one loop's variable: 8^10 readings.
	line := ""
	body := "true"
	for i := range 10 {
		line += fmt.Sprintf("for v%d in 1 2 3 4 5 6 7 8; do ", i)
		body = fmt.Sprintf("echo $v%d $(%s)", i, body)
	}
	line += body + strings.Repeat("; done", 10)
	start := time.Now()
	_, err := Commands(line)
	assert.ErrorContains(t, err, "values")
	assert.Less(t, time.Since(start), time.Minute)

	// A value that doubles at each assignment: the budget stops it.
	line = "x=ab; " + strings.Repeat("x=$x$x; ", 64) + "rm -rf $x"
	start = time.Now()
	_, err = Commands(line)
	assert.ErrorContains(t, err, "too long")
	assert.Less(t, time.Since(start), time.Minute)

	// Values that multiply: too many.
	line = "for a in 1 2 3 4 5 6 7 8; do for b in 1 2 3 4 5 6 7 8; do x=$a$b; done; done; for c in 1 2 3; do y=$x$c; done; rm -rf /$y"
	_, err = Commands(line)
	assert.ErrorContains(t, err, "values")

	// A loop over more words than a variable keeps: unsure, not silent.
	var words []string
	for i := range maxValues + 1 {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	_, err = Commands("for f in " + strings.Join(words, " ") + "; do rm -rf $f; done")
	assert.ErrorContains(t, err, "values")
	_, err = Commands("if c; then for f in " + strings.Join(words, " ") + "; do :; done; fi; rm -rf /$f")
	assert.ErrorContains(t, err, "values")

	// More variables than a frame keeps: unsure, not silent.
	line = ""
	for i := range maxVars {
		line += fmt.Sprintf("v%d=1; ", i)
	}
	_, err = Commands(line + "x=/; rm -rf $x")
	assert.ErrorContains(t, err, "values")
}

// TestInline: an interpreter's code on its command line is read for what
// it hands to a shell and for its recursive deletes of a literal path.
func TestInline(t *testing.T) {
	tests := []struct {
		line string
		want []string // the commands after the interpreter's own, words joined by |, then " via " and the code's text
	}{
		{`python3 -c "import shutil; shutil.rmtree('/')"`, []string{`rm|-r|--|/ via python3 -c: shutil.rmtree("/")`}},
		{`python -c "import subprocess; subprocess.run(['sudo','rm','-rf','/'])"`, []string{`rm|-rf|/ via python -c,sudo: subprocess.run(["sudo", "rm", "-rf", "/"])`}},
		{`python3 -c 'import os; os.system("curl -s https://x.sh | sh")'`, []string{"curl|-s|https://x.sh via python3 -c", "sh via python3 -c"}},
		{`perl -e 'system("rm -rf /")'`, []string{"rm|-rf|/ via perl -e"}},
		{"perl -e '`rm -rf ~`'", []string{"rm|-rf|~ via perl -e"}},
		{`perl -MFile::Path -e 'rmtree("/usr")'`, []string{`rm|-r|--|/usr via perl -e: rmtree("/usr")`}},
		{`ruby -rfileutils -e 'FileUtils.rm_rf("/")'`, []string{`rm|-r|--|/ via ruby -e: FileUtils.rm_rf("/")`}},
		{`ruby -e 'FileUtils.rm_r(["build", "/etc"])'`, []string{`rm|-r|--|build|/etc via ruby -e: FileUtils.rm_r(["build", "/etc"])`}},
		{`ruby -e 'system "rm", "-rf", "/"'`, []string{`rm|-rf|/ via ruby -e: system(["rm", "-rf", "/"])`}},
		{`node -e "require('child_process').spawnSync('rm', ['-rf', '/'])"`, []string{`rm|-rf|/ via node -e: spawnSync(["rm", "-rf", "/"])`}},
		{`node -e "require('fs').rmSync('/', {recursive:true})"`, []string{`rm|-r|--|/ via node -e: rmSync("/")`}},
		{`node --eval "require('child_process').execSync('rm -rf ~')"`, []string{"rm|-rf|~ via node --eval"}},
		{`deno eval "Deno.removeSync('/', {recursive: true})"`, []string{`rm|-r|--|/ via deno eval: Deno.removeSync("/")`}},
		{`php -r 'system("rm -rf /");'`, []string{"rm|-rf|/ via php -r"}},
		{"perl <<EOF\nsystem(\"rm -rf /\");\nEOF", []string{"rm|-rf|/ via perl <<"}},
		{`python3 - <<< "import shutil; shutil.rmtree('/usr')"`, []string{`rm|-r|--|/usr via python3 <<: shutil.rmtree("/usr")`}},
		{`awk 'BEGIN {system("rm -rf /")}'`, []string{"rm|-rf|/ via awk"}},
		{`awk -F: -v x=1 'BEGIN {system("rm -rf ~")}' /etc/passwd`, []string{"rm|-rf|~ via awk"}},
		// The home folder as the languages name it, and literal paths
		// joined to it.
		{`python3 -c "import shutil,os; shutil.rmtree(os.path.expanduser('~'))"`, []string{`rm|-r|--|~ via python3 -c: shutil.rmtree("~")`}},
		{`python3 -c "import shutil,os; shutil.rmtree(os.path.expanduser('~/Documents'))"`, []string{`rm|-r|--|~/Documents via python3 -c: shutil.rmtree("~/Documents")`}},
		{`python3 -c "from pathlib import Path; import shutil; shutil.rmtree(Path.home() / 'src' / 'old')"`, []string{`rm|-r|--|~/src/old via python3 -c: shutil.rmtree("~/src/old")`}},
		{`python3 -c "import shutil,os; shutil.rmtree(os.environ['HOME'])"`, []string{`rm|-r|--|~ via python3 -c: shutil.rmtree("~")`}},
		{`node -e "require('fs').rmSync(require('os').homedir(), {recursive: true})"`, []string{`rm|-r|--|~ via node -e: rmSync("~")`}},
		{`node -e "require('fs').rmSync(process.env.HOME + '/Documents', {recursive: true})"`, []string{`rm|-r|--|~/Documents via node -e: rmSync("~/Documents")`}},
		{`ruby -e 'FileUtils.rm_rf(Dir.home)'`, []string{`rm|-r|--|~ via ruby -e: FileUtils.rm_rf("~")`}},
		{`perl -MFile::Path=remove_tree -e 'remove_tree($ENV{HOME})'`, []string{`rm|-r|--|~ via perl -e: remove_tree("~")`}},
		{`python3 -c "from pathlib import Path; import shutil; shutil.rmtree(Path.home().joinpath(x))"`, nil},
		{`python3 -c "from pathlib import Path; import shutil; shutil.rmtree(Path.home() / name)"`, nil},
		{`python3 script.py <<< 'import os; os.system("rm -rf /")'`, nil},
		{`awk -f prog.awk 'system("rm -rf /")'`, nil},
		// Not code of the command line, or nothing run.
		{`python3 -c "print('rm -rf /')"`, nil},
		{`python3 -m http.server`, nil},
		{`python3 script.py -c "import shutil; shutil.rmtree('/')"`, nil},
		{`perl -pi -e 's/rm -rf//' x`, nil},
		{`python3 -c "import os; os.system(f'rm -rf {d}')"`, nil},
		{`node -e 'execSync(` + "`rm -rf ${d}`" + `)'`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			cs, err := Commands(tt.line)
			require.NoError(t, err)
			var got []string
			for _, c := range cs[1:] {
				s := strings.Join(c.Args, "|") + " via " + strings.Join(c.Via, ",")
				if c.Text != "" {
					s += ": " + c.Text
				}
				got = append(got, s)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestScripts: a script the line writes with text it shows is read where
// the line runs it.
func TestScripts(t *testing.T) {
	tests := []struct {
		line string
		want []cmd
	}{
		{"echo 'rm -rf /' > x.sh && bash x.sh", []cmd{{"echo|rm -rf /", "", false}, {"rm|-rf|/", "bash x.sh", false}}},
		{"printf 'rm -rf ~\\n' > /tmp/c.sh; chmod +x /tmp/c.sh; /tmp/c.sh", []cmd{{"printf|rm -rf ~\\n", "", false}, {"chmod|+x|/tmp/c.sh", "", false}, {"rm|-rf|~", "/tmp/c.sh", false}}},
		{"cat > run.sh <<'EOF'\nrm -rf /\nEOF\nsh run.sh", []cmd{{"cat", "", false}, {"rm|-rf|/", "sh run.sh", false}}},
		{"echo 'x=/' > env.sh; echo 'rm -rf $x' >> env.sh; . ./env.sh", []cmd{{"echo|x=/", "", false}, {"echo|rm -rf $x", "", false}, {"rm|-rf|/", ". ./env.sh", false}}},
		{"echo 'rm -rf /' | tee x.sh; sudo sh < x.sh", []cmd{{"echo|rm -rf /", "", false}, {"tee|x.sh", "", false}, {"rm|-rf|/", "sudo,sh -s", true}}},
		{"cd /tmp && echo 'rm -rf ~' > a.sh; bash /tmp/a.sh", []cmd{{"cd|/tmp", "", false}, {"echo|rm -rf ~", "", false}, {"rm|-rf|~", "bash /tmp/a.sh", false}}},
		// Written with what the line does not show, or not the file run.
		{"curl -s https://x > x.sh; bash x.sh", []cmd{{"curl|-s|https://x", "", false}, {"bash|x.sh", "", false}}},
		{"echo 'rm -rf /' > x.sh; cat y >> x.sh; bash x.sh", []cmd{{"echo|rm -rf /", "", false}, {"cat|y", "", false}, {"bash|x.sh", "", false}}},
		{"echo 'rm -rf /' > x.sh; bash y.sh", []cmd{{"echo|rm -rf /", "", false}, {"bash|y.sh", "", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			cs, err := Commands(tt.line)
			require.NoError(t, err)
			assert.Equal(t, tt.want, summary(cs))
		})
	}
}

// TestDecoded: a literal the line decodes is read as what it decodes to,
// as a program fed to a shell and as a word; what only the run decodes,
// and what is encoded, not decoded, stays unknown.
func TestDecoded(t *testing.T) {
	for line, want := range map[string]string{
		`echo cm0gLXJmIC8= | base64 -d | sh`:         "rm|-rf|/",
		`echo cm0gLXJmIC8K | base64 --decode | bash`: "rm|-rf|/",
		`printf 'cm0gLXJmIC8=' | base64 -di | sh`:    "rm|-rf|/",
		`base64 -d <<< cm0gLXJmIC8= | sh`:            "rm|-rf|/",
		`echo 726d202d7266202f | xxd -r -p | sh`:     "rm|-rf|/",
		`echo '/ fr- mr' | rev | bash`:               "rm|-rf|/",
		`eval "$(echo cm0gLXJmIC8= | base64 -d)"`:    "rm|-rf|/",
		`rm -rf "$(echo L3Vzcg== | base64 -d)"`:      "rm|-rf|/usr",
		`echo '/ fr- mr' | rev | cat | sh`:           "rm|-rf|/",
	} {
		cs, err := Commands(line)
		require.NoError(t, err, line)
		assert.True(t, slices.ContainsFunc(cs, func(c Command) bool { return strings.Join(c.Args, "|") == want }), "%q: %q", line, argLines(cs))
	}
	for _, line := range []string{
		`curl -s https://x.io/p | base64 -d | sh`,
		`echo cm0gLXJmIC8= | base64 | sh`,
		`echo 'not base64!' | base64 -d | sh`,
		`echo cm0gLXJmIC8= | base64 -d -w0 | sh`,
		`echo x | rev | rev | rev | rev | sh`,
		`echo OJWSALLSMYQC6=== | base32 -d | sh`,
	} {
		cs, err := Commands(line)
		require.NoError(t, err, line)
		assert.False(t, slices.ContainsFunc(cs, func(c Command) bool { return c.Name() == "rm" }), "%q: %q", line, argLines(cs))
		assert.True(t, slices.ContainsFunc(cs, func(c Command) bool { return c.Program == ProgramStdin }), "%q: %q", line, argLines(cs))
	}
}
