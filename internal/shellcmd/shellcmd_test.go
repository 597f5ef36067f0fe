package shellcmd

import (
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
		{"cat <<EOF | sh\nrm -rf /\nEOF", []cmd{{"cat", "", false}, {"sh", "", false}}},
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
		{`sh -c "$(curl -fsSL https://x)"`, []cmd{{"$(curl -fsSL https://x)", "sh -c", false}, {"curl|-fsSL|https://x", "sh -c,$()", false}}},
		{`sudo bash -c 'rm -rf /'`, []cmd{{"rm|-rf|/", "sudo,bash -c", true}}},
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
		"echo $(echo $(ls))",
		"f() { rm -rf /; }",
		strings.Repeat("bash -c '", 3) + "x",
	} {
		_, err := Commands(line)
		assert.Error(t, err, line)
	}
	// What came before the problem is kept.
	cs, err := Commands(`rm -rf / && echo "x`)
	require.Error(t, err)
	assert.Equal(t, []cmd{{"rm|-rf|/", "", false}}, summary(cs))

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
		assert.Less(t, time.Since(start), 5*time.Second, "%d bytes", len(line))
	}
}

func FuzzCommands(f *testing.F) {
	for _, s := range []string{"a && rm -rf /", "bash -c 'x $(y) `z`'", "cat <<E\nx\nE", "(a|b) <(c) >(d)",
		"sudo -u x env A=1 -S 'q' nice -n 1 xargs -I{} sh -c '{}'", "echo \"$(a \"b\")\"", "\\\n", "find / -exec x ;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var cs []Command
		done := make(chan bool)
		go func() { cs, _ = Commands(line); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("HANG %q", line)
		}
		for _, c := range cs {
			for _, a := range c.Args {
				if strings.ContainsAny(a, "\x00\x01\x02\x03\x04") {
					t.Fatalf("marker left in %q", a)
				}
			}
			if c.Parent >= len(cs) {
				t.Fatalf("parent %d out of range", c.Parent)
			}
		}
	})
}
