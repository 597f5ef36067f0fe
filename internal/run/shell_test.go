package run

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A handler's command line starts directly when it needs no shell, else
// under the system's shell: sh on Unix, cmd.exe on Windows, where cmd's
// own syntax and built-in commands need it too.
func TestArgv(t *testing.T) {
	for _, tc := range []struct {
		goos, line string
		want       []string
		direct     bool
	}{
		{"linux", "node hook.js --strict", []string{"node", "hook.js", "--strict"}, true},
		{"windows", "node hook.js --strict", []string{"node", "hook.js", "--strict"}, true},
		{"darwin", `python3 "my hook.py"`, []string{"python3", "my hook.py"}, true},
		{"linux", "grep -q rm | true", []string{"/bin/sh", "-c", "grep -q rm | true"}, false},
		{"darwin", "exit 2", []string{"exit", "2"}, true},
		{"windows", "grep -q rm | true", []string{"cmd", "/d", "/s", "/c", "grep -q rm | true"}, false},
		{"windows", `C:\Tools\check.exe --strict`, []string{"cmd", "/d", "/s", "/c", `C:\Tools\check.exe --strict`}, false},
		{"windows", "echo {}", []string{"cmd", "/d", "/s", "/c", "echo {}"}, false},
		{"windows", "echo denied", []string{"cmd", "/d", "/s", "/c", "echo denied"}, false},
		{"linux", "echo denied", []string{"echo", "denied"}, true},
		{"windows", "node %USERPROFILE%/hook.js", []string{"cmd", "/d", "/s", "/c", "node %USERPROFILE%/hook.js"}, false},
	} {
		got, direct := argv(tc.goos, tc.line)
		require.Equal(t, tc.want, got, "%s: %s", tc.goos, tc.line)
		require.Equal(t, tc.direct, direct, "%s: %s", tc.goos, tc.line)
	}
}

// cmd.exe gets a shell line whole, quotes and all, wrapped in the one
// pair of quotes /S takes away: the command line is built from argv's
// words, so the argv hookshim shows is the process it starts.
func TestCmdExeLine(t *testing.T) {
	for line, want := range map[string]string{
		"echo {}": `cmd /d /s /c "echo {}"`,
		`"C:\Program Files\jq\jq.exe" -r .tool_name | x`: `cmd /d /s /c ""C:\Program Files\jq\jq.exe" -r .tool_name | x"`,
		`node "%USERPROFILE%\hooks\a b.js"`:              `cmd /d /s /c "node "%USERPROFILE%\hooks\a b.js""`,
	} {
		args, direct := argv("windows", line)
		require.False(t, direct, line)
		require.Equal(t, []string{"cmd", "/d", "/s", "/c", line}, args, line)
		require.Equal(t, want, cmdExeLine(args), line)
	}
}
