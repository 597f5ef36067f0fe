package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/completion"
	"github.com/hookshim/hookshim/internal/policy"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// The usage text's synopses are read as the scripts need them: every
// command, and the flags and words of a few.
func TestCompletionCommands(t *testing.T) {
	specs := map[string]completion.Command{}
	for _, c := range completion.Commands(usageBlocks()) {
		specs[c.Name] = c
	}
	require.Len(t, specs, len(commands))
	for _, c := range commands {
		require.Contains(t, specs, c.name)
	}
	flags := func(name string) map[string]*completion.Arg {
		m := map[string]*completion.Arg{}
		for _, f := range specs[name].Flags {
			m[f.Name] = f.Arg
		}
		return m
	}
	install := flags("install")
	require.Equal(t, provider.IDs(), install["--provider"].Words)
	require.Contains(t, install, "--all")
	require.Nil(t, install["--all"])
	require.Equal(t, []string{"project", "user"}, install["--scope"].Words)
	require.True(t, install["--bin"].Files)
	require.Contains(t, install, "--check", "the synopsis's second line is read")
	extend := flags("extend")
	require.True(t, extend["--config"].Files)
	require.Nil(t, extend["--user"], "--user] closes its block: it takes no value")
	require.Equal(t, []string{"off"}, flags("run")["--log"].Words)
	require.True(t, flags("run")["--log"].Files)
	require.Equal(t, policy.Names(), specs["policies"].Args.Words)
	require.Equal(t, []string{"deny-destructive", "prompt-context"}, specs["example-policy"].Args.Words)
	require.Equal(t, completion.Shells, specs["completion"].Args.Words)
	require.Equal(t, commandNames(), specs["help"].Args.Words)
	require.Empty(t, specs["version"].Flags)
}

func TestCompletionBadShell(t *testing.T) {
	for _, args := range [][]string{{"tcsh"}, {}, {"bash", "zsh"}} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 2, Main(append([]string{"completion"}, args...), strings.NewReader(""), &stdout, &stderr, func(string) string { return "" }))
		require.Equal(t, "hookshim: error: completion takes one shell: bash, zsh, fish\nhookshim: hint: run 'hookshim completion --help' for its usage\n", stderr.String())
		require.Empty(t, stdout.String())
	}
}

// bash loads the script hookshim prints and completes a few words as it
// would at a prompt (the scripts of every shell: internal/completion).
func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Main([]string{"completion", "bash"}, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" }), stderr.String())
	script := filepath.Join(t.TempDir(), "hookshim.bash")
	require.NoError(t, os.WriteFile(script, stdout.Bytes(), 0o644))
	complete := func(words ...string) []string {
		t.Helper()
		line := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _hookshim; printf '%s\n' "${COMPREPLY[@]}"`
		out, err := exec.Command(bash, append([]string{"--norc", "--noprofile", "-c", line, "bash", script}, words...)...).CombinedOutput()
		require.NoError(t, err, string(out))
		return strings.Fields(string(out))
	}
	require.Equal(t, []string{"install"}, complete("hookshim", "inst"))
	require.Equal(t, []string{"completion"}, complete("hookshim", "compl"))
	require.Equal(t, []string{"--dry-run"}, complete("hookshim", "install", "--dr"))
	require.Equal(t, []string{"claude-code", "cline"}, complete("hookshim", "install", "--provider", "cl"))
	require.Equal(t, []string{"user"}, complete("hookshim", "uninstall", "--scope", "u"))
	require.Equal(t, []string{"hookshim/destructive-shell"}, complete("hookshim", "policies", "hookshim/des"))
	require.Equal(t, []string{"fish"}, complete("hookshim", "completion", "f"))
	require.Equal(t, []string{"gemini-cli"}, complete("hookshim", "log", "--tool", "gem"))
}
