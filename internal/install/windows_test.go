package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Windows behaviours of install that need no Windows to check: how a
// project entry names a binary in the project, what makes a file
// runnable, the .exe a PATH search finds, and the command lines the tools
// of Windows are given (PowerShell's call operator, backslashes, .exe).

func TestProjectProgram(t *testing.T) {
	for _, tc := range []struct {
		goos, dir, bin string
		want           string
		ok             bool
	}{
		{"linux", `"$CLAUDE_PROJECT_DIR"`, "bin/hookshim", `"$CLAUDE_PROJECT_DIR"/bin/hookshim`, true},
		{"darwin", `"$CLAUDE_PROJECT_DIR"`, "my tools/hookshim", `"$CLAUDE_PROJECT_DIR"/'my tools/hookshim'`, true},
		{"linux", "", "bin/hookshim", "", false},
		{"windows", `"$CLAUDE_PROJECT_DIR"`, "bin/hookshim.exe", "", false},
	} {
		got, ok := projectProgram(tc.goos, tc.dir, tc.bin)
		assert.Equal(t, tc.ok, ok, "%s %s %s", tc.goos, tc.dir, tc.bin)
		assert.Equal(t, tc.want, got, "%s %s %s", tc.goos, tc.dir, tc.bin)
	}
}

func TestRunnableOn(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "hookshim")
	require.NoError(t, os.WriteFile(plain, nil, 0o644))
	for _, tc := range []struct {
		path           string
		linux, windows string
	}{
		{plain, "is not executable", ""},
		{dir, "is a folder", "is a folder"},
		{filepath.Join(dir, "gone"), "does not exist", "does not exist"},
	} {
		assert.Equal(t, tc.linux, runnableOn("linux", tc.path), tc.path)
		assert.Equal(t, tc.windows, runnableOn("windows", tc.path), tc.path)
	}
}

// A PATH search finds name.exe, with no mode bit, as Windows runs it; a
// file without .exe needs its mode bit.
func TestLookPathExe(t *testing.T) {
	win, unix := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(win, "hookshim.exe"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(unix, "hookshim"), nil, 0o644))
	assert.Equal(t, filepath.Join(win, "hookshim.exe"), LookPath("hookshim", unix+string(os.PathListSeparator)+win))
	assert.Equal(t, "", LookPath("hookshim", unix))
}

func TestParseCallWindows(t *testing.T) {
	for line, want := range map[string]call{
		`& "C:\Program Files\hookshim\hookshim.exe" run --provider copilot`:   {Bin: "C:/Program Files/hookshim/hookshim.exe", Provider: "copilot"},
		`C:\Tools\hookshim.exe run --provider claude-code --event PreToolUse`: {Bin: "C:/Tools/hookshim.exe", Provider: "claude-code", Event: "PreToolUse"},
		`"C:\Tools\HOOKSHIM.EXE" run --provider=gemini-cli`:                   {Bin: "C:/Tools/HOOKSHIM.EXE", Provider: "gemini-cli"},
	} {
		got, ok := parseCall(line)
		assert.True(t, ok, line)
		assert.Equal(t, want, got, line)
	}
	for _, line := range []string{
		`C:\Tools\hookshim.exe run --provider copilot; del C:\x`,
		`C:\Tools\hookshim-remote.exe run`,
	} {
		_, ok := parseCall(line)
		assert.False(t, ok, line)
	}
}

// A user target the tool reads from %APPDATA% on Windows is found there;
// elsewhere, and without APPDATA, in the home folder.
func TestPathOnWindows(t *testing.T) {
	home := "/home/u"
	devin := *provider.Lookup("devin-cli").Install
	claude := *provider.Lookup("claude-code").Install
	var devinUser, claudeUser provider.Target
	for _, tg := range devin.Targets {
		if tg.Scope == provider.ScopeUser {
			devinUser = tg
		}
	}
	for _, tg := range claude.Targets {
		if tg.Scope == provider.ScopeUser {
			claudeUser = tg
		}
	}
	for _, tc := range []struct {
		goos, appData string
		target        provider.Target
		want          string
	}{
		{"windows", "/appdata", devinUser, "/appdata/devin/config.json"},
		{"windows", "", devinUser, "/home/u/.config/devin/config.json"},
		{"windows", "relative", devinUser, "/home/u/.config/devin/config.json"},
		{"linux", "/appdata", devinUser, "/home/u/.config/devin/config.json"},
		{"windows", "/appdata", claudeUser, "/home/u/.claude/settings.json"},
	} {
		env := Env{Home: home, Getenv: func(k string) string { return map[string]string{"APPDATA": tc.appData}[k] }}
		got, err := env.pathOn(tc.goos, tc.target)
		require.NoError(t, err)
		assert.Equal(t, filepath.FromSlash(tc.want), got, "%s APPDATA=%s %s", tc.goos, tc.appData, tc.target.Dir)
	}
}
