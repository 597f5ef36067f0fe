//go:build unix

package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakePath is a PATH of the names given, each found at /usr/bin/NAME.
func fakePath(names ...string) LookPath {
	return func(name string) (string, error) {
		for _, n := range names {
			if n == name {
				return "/usr/bin/" + name, nil
			}
		}
		return "", exec.ErrNotFound
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), mode))
	}
	write("hooks/ok.sh", "#!/bin/sh\necho ok\n", 0o755)
	write("hooks/plain.sh", "#!/bin/sh\n", 0o644)
	write("hooks/noshebang.sh", "echo hi\n", 0o755)
	write("hooks/noshebang.py", "print(1)\n", 0o755)
	write("hooks/gone-interp.sh", "#!/opt/nowhere/bash\n", 0o755)
	write("hooks/env-py.py", "#!/usr/bin/env python3\n", 0o755)
	write("hooks/env-s.js", "#!/usr/bin/env -S node --no-warnings\n", 0o755)
	write("hooks/lib.py", "print(1)\n", 0o644)
	write("hooks/crlf.sh", "#!/bin/sh\r\necho ok\r\n", 0o755)
	write("local-tool", "#!/bin/sh\n", 0o755)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "adir"), 0o755))
	if _, err := os.Stat("/usr/bin/env"); err != nil {
		t.Skip("no /usr/bin/env")
	}

	for _, tc := range []struct {
		command string
		path    LookPath
		want    []string // "kind|message|fix"; none for a command that starts
	}{
		{command: "./hooks/ok.sh"},
		{command: "./hooks/ok.sh --flag 'quoted arg'"},
		{command: "./hooks/missing.sh",
			want: []string{"missing|hooks/missing.sh does not exist|create hooks/missing.sh"}},
		{command: "./hooks/plain.sh",
			want: []string{"not-executable|hooks/plain.sh is not executable|chmod +x hooks/plain.sh"}},
		{command: "./hooks/noshebang.sh",
			want: []string{"no-shebang|hooks/noshebang.sh has no #! line, so it cannot be started directly|add #!/bin/sh as its first line"}},
		{command: "./hooks/noshebang.py",
			want: []string{"no-shebang|hooks/noshebang.py has no #! line, so it cannot be started directly|add #!/usr/bin/env python3 as its first line"}},
		{command: "./hooks/gone-interp.sh", path: fakePath("bash"),
			want: []string{"interpreter|hooks/gone-interp.sh starts with #!/opt/nowhere/bash, which does not exist|change its #! line to #!/usr/bin/env bash (bash is /usr/bin/bash here)"}},
		{command: "./hooks/gone-interp.sh", path: fakePath(),
			want: []string{"interpreter|hooks/gone-interp.sh starts with #!/opt/nowhere/bash, which does not exist|install bash"}},
		{command: "./hooks/env-py.py", path: fakePath("python3")},
		{command: "./hooks/env-py.py", path: fakePath(),
			want: []string{"interpreter|hooks/env-py.py needs python3 (#!/usr/bin/env python3), which is not in PATH|install python3"}},
		{command: "./hooks/env-s.js", path: fakePath(),
			want: []string{"interpreter|hooks/env-s.js needs node (#!/usr/bin/env node), which is not in PATH|install node"}},
		{command: "./hooks/crlf.sh",
			want: []string{"interpreter|hooks/crlf.sh has Windows (CRLF) line endings: its #! line ends in a carriage return|save hooks/crlf.sh with Unix (LF) line endings"}},
		{command: "./adir", want: []string{"not-a-program|adir is a folder, not a program|name the program to run in the command"}},
		{command: "jq -r .x", path: fakePath(),
			want: []string{"not-in-path|jq is not in PATH|install jq (or put it in PATH)"}},
		{command: "local-tool", path: fakePath(),
			want: []string{"not-in-path|local-tool is not in PATH (a program in the project is named by its path)|write ./local-tool in the command"}},
		// Interpreter style: the interpreter in PATH, the script in the project.
		{command: "sh hooks/plain.sh", path: fakePath("sh")},
		{command: "sh -e hooks/plain.sh", path: fakePath("sh")},
		{command: "sh hooks/x.sh", path: fakePath("sh"),
			want: []string{"missing|hooks/x.sh does not exist|create hooks/x.sh"}},
		{command: "python3 x.py", path: fakePath(),
			want: []string{"not-in-path|python3 is not in PATH|install python3 (or put it in PATH)"}},
		{command: "python3 -u hooks/x.py", path: fakePath("python3"),
			want: []string{"missing|hooks/x.py does not exist|create hooks/x.py"}},
		{command: "python3.12 hooks/lib.py", path: fakePath("python3.12")},
		{command: "python3 -m http.server", path: fakePath("python3")},
		{command: "node -e 'x.js'", path: fakePath("node")},
		{command: "node hooks/x.js", path: fakePath("node"),
			want: []string{"missing|hooks/x.js does not exist|create hooks/x.js"}},
		{command: "deno run hooks/x.ts", path: fakePath("deno"),
			want: []string{"missing|hooks/x.ts does not exist|create hooks/x.ts"}},
		{command: "bash -o pipefail", path: fakePath("bash")}, // not a script name: not guessed at
		// Shell lines: each plainly named program is checked, the rest is the shell's.
		{command: "jq . | ./hooks/missing.sh > out.log 2>&1", path: fakePath("jq"),
			want: []string{"missing|hooks/missing.sh does not exist|create hooks/missing.sh"}},
		{command: "cat > ./hooks/missing.sh; FOO=1 exec nothere $HOME", path: fakePath("cat"),
			want: []string{"not-in-path|nothere is not in PATH|install nothere (or put it in PATH)"}},
		{command: "cd hooks && ./ok.sh", path: fakePath()}, // relative to a folder the shell changed to: not guessed at
		{command: "$HOME/bin/x || echo fallback; test -x y", path: fakePath()},
		{command: "./hooks/ok.sh «é» && nothere", path: fakePath(),
			want: []string{"not-in-path|nothere is not in PATH|install nothere (or put it in PATH)"}},
	} {
		t.Run(tc.command, func(t *testing.T) {
			h := &Hook{Name: "h", Pos: filepath.Join(dir, FileName) + ":3", Command: tc.command, Dir: dir}
			var got []string
			for _, p := range h.Check(dir, tc.path) {
				require.Equal(t, ".openhook.json:3", p.Pos)
				require.Equal(t, "h", p.Hook)
				got = append(got, p.Kind+"|"+p.Msg+"|"+p.Fix)
			}
			require.Equal(t, tc.want, got)
		})
	}
}

// Script is the script an interpreter is given, when the command says so.
func TestHookScript(t *testing.T) {
	h := &Hook{Dir: "/p"}
	for line, want := range map[string]string{
		"sh hooks/x.sh":              "/p/hooks/x.sh",
		"python3 -u check.py arg":    "/p/check.py",
		"/usr/bin/node /abs/x.js":    "/abs/x.js",
		"deno run hooks/x.ts":        "/p/hooks/x.ts",
		"pwsh -File hooks/x.ps1":     "/p/hooks/x.ps1",
		"pwsh -c Get-Date":           "",
		"python3 -m pkg.mod":         "",
		"node --version":             "",
		"bash -o pipefail":           "",
		"fakehandler record ran.log": "",
		"./hooks/x.sh":               "",
	} {
		args, ok := Argv(line)
		require.True(t, ok, line)
		require.Equal(t, want, h.Script(args), line)
	}
}

// Relative to the folder the user is in; outside it, absolute.
func TestCheckDisplay(t *testing.T) {
	dir := t.TempDir()
	h := &Hook{Name: "h", Pos: filepath.Join(dir, FileName) + ":1", Command: "./hooks/x.sh", Dir: dir}
	ps := h.Check(filepath.Join(dir, "sub"), fakePath())
	require.Len(t, ps, 1)
	require.Equal(t, filepath.Join(dir, "hooks/x.sh")+" does not exist", ps[0].Msg)
	require.Equal(t, filepath.Join(dir, FileName)+":1: hook \"h\": "+ps[0].Msg+"; fix: create "+filepath.Join(dir, "hooks/x.sh"), ps[0].String())
}

// A working folder that is not there stops everything else.
func TestCheckMissingCwd(t *testing.T) {
	dir := t.TempDir()
	h := &Hook{Name: "h", Pos: "x:1", Command: "./x.sh", Dir: filepath.Join(dir, "nope")}
	ps := h.Check(dir, fakePath())
	require.Len(t, ps, 1)
	require.Equal(t, BadDir, ps[0].Kind)
	require.Equal(t, "create nope or change the handler's cwd", ps[0].Fix)

	// Shown from the folder itself (as internal/run does), it stays
	// absolute: "." would name nothing.
	ps = h.Check(h.Dir, fakePath())
	require.Len(t, ps, 1)
	require.Equal(t, "create "+h.Dir+" or change the handler's cwd", ps[0].Fix)
}

// The file's check lists a problem several hooks share once, and parses
// real configs (cwd, platform commands).
func TestFileCheck(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, FileName)
	require.NoError(t, os.WriteFile(cfg, []byte(`{"spec": "hooks/0.1", "hooks": [
  {"event": "before_tool_execute", "handler": {"type": "command", "command": "jq .a"}},
  {"event": "after_tool_execute", "handler": {"type": "command", "command": "jq .b"}},
  {"event": "session_start", "handler": {"type": "command", "command": "./run.sh", "cwd": "tools"}}
]}`), 0o644))
	f, err := Load(cfg)
	require.NoError(t, err)
	ps := f.Check(dir, fakePath())
	var msgs []string
	for _, p := range ps {
		msgs = append(msgs, p.Msg)
	}
	require.Equal(t, []string{"jq is not in PATH", "its working folder tools does not exist"}, msgs)
}

// The runner starts a command the way Argv splits it: the same lines need
// a shell, the same words reach the program.
func TestArgv(t *testing.T) {
	for _, tc := range []struct {
		line           string
		linux, windows []string // nil: the line needs the system's shell
	}{
		{"./hooks/x.sh", []string{"./hooks/x.sh"}, []string{"./hooks/x.sh"}},
		{`python3 "my hook.py" -v`, []string{"python3", "my hook.py", "-v"}, []string{"python3", "my hook.py", "-v"}},
		{`"C:/Program Files/nodejs/node.exe" hook.js`, []string{"C:/Program Files/nodejs/node.exe", "hook.js"}, []string{"C:/Program Files/nodejs/node.exe", "hook.js"}},
		{"a | b", nil, nil},
		{"echo $HOME", nil, nil},
		{"FOO=1 x", nil, nil},
		{"", nil, nil},
		// A backslash is an escape for sh, and a Windows path: either
		// way the shell reads it.
		{`C:\Tools\check.exe --strict`, nil, nil},
		// cmd.exe's variables and escape, and its built-in commands.
		{"node %APPDATA%/hook.js", []string{"node", "%APPDATA%/hook.js"}, nil},
		{"x ^ y", []string{"x", "^", "y"}, nil},
		{"echo hi", []string{"echo", "hi"}, nil},
		{"TYPE notes.txt", []string{"TYPE", "notes.txt"}, nil},
		{"echo.exe hi", []string{"echo.exe", "hi"}, []string{"echo.exe", "hi"}},
	} {
		for goos, want := range map[string][]string{"linux": tc.linux, "darwin": tc.linux, "windows": tc.windows} {
			got, ok := ArgvOn(goos, tc.line)
			require.Equal(t, want != nil, ok, "%s: %s", goos, tc.line)
			require.Equal(t, want, got, "%s: %s", goos, tc.line)
		}
	}
	got, ok := Argv("./hooks/x.sh")
	require.True(t, ok)
	require.Equal(t, []string{"./hooks/x.sh"}, got)
}

// The real PATH lookup is the default.
func TestCheckDefaultLookPath(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh in PATH")
	}
	h := &Hook{Name: "h", Pos: "x:1", Command: "sh -c true", Dir: t.TempDir()}
	require.Empty(t, h.Check("", nil))
	h.Command = "hookshim-no-such-program-" + strings.Repeat("x", 8)
	ps := h.Check("", nil)
	require.Len(t, ps, 1)
	require.Equal(t, NotInPath, ps[0].Kind)
}

// On Windows a file starts with no mode bit and no #! line, and a line
// for cmd.exe is not read; on Unix each of these is a problem.
func TestCheckOn(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plain.sh"), []byte("#!/bin/sh\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "noshebang.sh"), []byte("echo hi\n"), 0o755))
	for _, tc := range []struct {
		command        string
		linux, windows []string
	}{
		{"./plain.sh", []string{NotExecutable}, nil},
		{"./noshebang.sh", []string{NoShebang}, nil},
		{"./gone.sh | true", []string{Missing}, nil},
		{"gone-program --x", []string{NotInPath}, []string{NotInPath}},
		{"echo denied", nil, nil},
	} {
		for goos, want := range map[string][]string{"linux": tc.linux, "windows": tc.windows} {
			h := &Hook{Name: "h", Pos: "x:1", Command: tc.command, Dir: dir}
			var got []string
			for _, p := range h.checkOn(goos, "", fakePath("echo")) {
				got = append(got, p.Kind)
			}
			require.Equal(t, want, got, "%s: %s", goos, tc.command)
		}
	}
}
