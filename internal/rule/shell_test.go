package rule

import (
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shell-aware forms see a command wherever the shell would run it, and
// only there.
func TestShell(t *testing.T) {
	const rmRoot = `any(commands, .name == "rm" && "r" in .flags && "/" in .operands)`
	for _, c := range []struct {
		expr, cmd string
		want      bool
	}{
		{rmRoot, "rm -rf /", true},
		{rmRoot, "rm -fr /", true},
		{rmRoot, "rm -r -f /", true},
		{rmRoot, "x=/; rm -rf $x", true}, // a variable the line sets: its value
		// $PWD is the call's cwd, /home/u/proj.
		{`any(commands, .name == "rm" && "/home/u" in .operands)`, "rm -rf ${PWD%/*}", true},
		{`any(commands, .name == "rm" && "/home/u/proj/dist" in .operands)`, `rm -rf "$(pwd)/dist"`, true},
		{`any(commands, .name == "rm" && "docker" in .via && .dir == "/h")`, `docker run -v /:/h -w /h img rm -rf x`, true},
		{rmRoot, "for d in build /; do rm -rf $d; done", true},
		{rmRoot, `python3 -c "import shutil; shutil.rmtree('/')"`, true},
		{rmRoot, "rm -rf $x", false},                // known only at run time
		{rmRoot, "rm --recursive --force /", false}, // long options are named in full: "recursive" in .flags
		{`any(commands, .name == "rm" && "recursive" in .flags)`, "rm --recursive --force /", true},
		{rmRoot, "ls && rm -rf /", true},
		{rmRoot, "ls; rm -rf /", true},
		{rmRoot, "true || rm -rf /", true},
		{rmRoot, "cat x | rm -rf /", true},
		{rmRoot, "bash -c 'rm -rf /'", true},
		{rmRoot, `sh -c "cd /tmp && rm -rf /"`, true},
		{rmRoot, "sudo rm -rf /", true},
		{rmRoot, "env FOO=1 /bin/rm -rf /", true},
		{rmRoot, "echo $(rm -rf /)", true},
		{rmRoot, "echo 'rm -rf /'", false},
		{rmRoot, `echo "rm -rf /"`, false},
		{rmRoot, "git commit -m 'rm -rf /'", false},
		{rmRoot, "rm -rf ./build", false},
		{rmRoot, "rm -rf -- /", true},
		{rmRoot, `rm -rf "/"`, true},
		{rmRoot, `r\m -rf /`, true},
		{`runs("rm")`, "ls && rm x", true},
		{`runs("rm")`, "echo rm", false},
		{`runs("git", "push", "--force")`, "cd repo && git push origin main --force", true},
		{`runs("git", "push", "--force")`, "git push origin main", false},
		{`runs("git", "push", "--force")`, "echo git push --force", false},
		{`any(commands, .sudo)`, "ls && sudo apt install x", true},
		{`any(commands, .sudo)`, "echo sudo", false},
		{`any(commands, "bash -c" in .via && .name == "curl")`, `bash -c "curl x"`, true},
		{`any(commands, any(.redirects, .target startsWith "/dev/sd"))`, "cat img > /dev/sda", true},
		{`any(commands, any(.redirects, .target startsWith "/dev/sd"))`, "echo '> /dev/sda'", false},
		{`any(commands, "FOO=1" in .env)`, "FOO=1 make", true},
		{`len(commands) == 3`, "a | b && c", true},
		{`shell_error != ""`, "echo 'unclosed", true},
		{`shell_error == ""`, "echo ok", true},
		{`none(commands, .name == "rm")`, "", true},
		{rmRoot, "f() { :; }; rm -rf /", true},
		{rmRoot, "case x in *) ;; esac; rm -rf /", true},
		{rmRoot, "echo 'rm -rf /' | bash", true},
		{rmRoot, "trap 'rm -rf /' EXIT", true},
		{rmRoot, `$'\x72\x6d' -rf /`, true},
		{`any(commands, .name == "rm" && .dir == "/tmp")`, "cd /tmp && rm -rf x", true},
		{`any(commands, .name == "rm" && .dir == "")`, "(cd /tmp); rm -rf x", true},
		{`any(commands, .name == "rm" && .dir == "?")`, `cd "$X"; rm -rf x`, true},
		{`any(commands, .dynamic[1])`, `cat "$f"`, true},
		{`any(commands, .program != "")`, `bash -c "$CMD"`, true},
		{`any(commands, .program != "")`, `bash -c 'ls'`, false},
	} {
		r, err := Compile(c.expr)
		require.NoError(t, err, c.expr)
		got, err := r.Match(NewEnv(shellEvent(c.cmd)))
		require.NoError(t, err, c.expr)
		assert.Equal(t, c.want, got, "%s on %q", c.expr, c.cmd)
	}
}

// A PowerShell tool's line is read as PowerShell: Remove-Item is rm there,
// and a bash reading of the same words would see neither.
func TestShellPowerShell(t *testing.T) {
	const rmRecursive = `any(commands, .name == "rm" && "r" in .flags)`
	for _, c := range []struct {
		expr, cmd, shell string
		want             bool
	}{
		{rmRecursive, `Remove-Item -Recurse -Force C:\`, event.ShellPowerShell, true},
		{rmRecursive, `Remove-Item -Recurse -Force C:\`, "", false},
		{`runs("rm", "C:/")`, `rm -r -fo C:\`, event.ShellPowerShell, true},
		{`shell == "powershell"`, `Get-ChildItem`, event.ShellPowerShell, true},
		{`shell == ""`, `ls`, "", true},
		{`shell_error != ""`, `iex $x`, event.ShellPowerShell, true},
		{`shell_error == ""`, `echo 'iex $x'`, event.ShellPowerShell, true},
	} {
		r, err := Compile(c.expr)
		require.NoError(t, err, c.expr)
		ev := shellEvent(c.cmd)
		ev.Tool.Shell = c.shell
		got, err := r.Match(NewEnv(ev))
		require.NoError(t, err, c.expr)
		assert.Equal(t, c.want, got, "%s on %q (%q)", c.expr, c.cmd, c.shell)
	}
}
