package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/policy"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main([]string{"completion", shell}, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
	require.Equal(t, 0, code, stderr.String())
	path := filepath.Join(t.TempDir(), "hookshim."+shell)
	require.NoError(t, os.WriteFile(path, stdout.Bytes(), 0o644))
	return path
}

func needShell(t *testing.T, shell string) string {
	t.Helper()
	p, err := exec.LookPath(shell)
	if err != nil {
		t.Skipf("%s is not installed", shell)
	}
	return p
}

// The synopses of the usage text are read as the scripts need them.
func TestCompletionSpecs(t *testing.T) {
	specs := map[string]compSpec{}
	for _, s := range completionSpecs() {
		specs[s.name] = s
	}
	for _, c := range commands {
		require.Contains(t, specs, c.name)
	}
	flags := func(name string) map[string]*compArg {
		m := map[string]*compArg{}
		for _, f := range specs[name].flags {
			m[f.name] = f.arg
		}
		return m
	}
	install := flags("install")
	require.Equal(t, provider.IDs(), install["--provider"].words)
	require.Contains(t, install, "--all")
	require.Nil(t, install["--all"])
	require.Equal(t, []string{"project", "user"}, install["--scope"].words)
	require.True(t, install["--bin"].files)
	require.Nil(t, install["--dry-run"])
	extend := flags("extend")
	require.True(t, extend["--config"].files)
	require.Nil(t, extend["--user"], "--user] closes its block: it takes no value")
	require.Equal(t, []string{"off"}, flags("run")["--log"].words)
	require.True(t, flags("run")["--log"].files)
	require.Equal(t, policy.Names(), specs["policies"].args.words)
	require.Equal(t, []string{"deny-destructive", "prompt-context"}, specs["example-policy"].args.words)
	require.Equal(t, shells, specs["completion"].args.words)
	require.Empty(t, specs["version"].flags)
}

func TestCompletionBadShell(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 2, Main([]string{"completion", "tcsh"}, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" }))
	require.Equal(t, "hookshim: error: completion takes one shell: bash, zsh, fish\nhookshim: hint: run 'hookshim completion --help' for its usage\n", stderr.String())
	require.Empty(t, stdout.String())
}

// bash loads the script, registers it, and completes a few words as it
// would at a prompt.
func TestCompletionBash(t *testing.T) {
	bash := needShell(t, "bash")
	script := completionScript(t, "bash")
	complete := func(words ...string) []string {
		t.Helper()
		line := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _hookshim; printf '%s\n' "${COMPREPLY[@]}"`
		out, err := exec.Command(bash, append([]string{"--norc", "--noprofile", "-c", line, "bash", script}, words...)...).CombinedOutput()
		require.NoError(t, err, string(out))
		return strings.Fields(string(out))
	}
	out, err := exec.Command(bash, "--norc", "--noprofile", "-c", `source "$1" && complete -p hookshim`, "bash", script).CombinedOutput()
	require.NoError(t, err, string(out))
	require.Equal(t, "complete -o default -F _hookshim hookshim\n", string(out))

	require.Equal(t, []string{"install"}, complete("hookshim", "inst"))
	require.Equal(t, []string{"completion"}, complete("hookshim", "compl"))
	require.Equal(t, []string{"--dry-run"}, complete("hookshim", "install", "--dr"))
	require.Equal(t, []string{"claude-code", "cline"}, complete("hookshim", "install", "--provider", "cl"))
	require.Equal(t, []string{"user"}, complete("hookshim", "uninstall", "--scope", "u"))
	require.Equal(t, []string{"hookshim/destructive-shell"}, complete("hookshim", "policies", "hookshim/des"))
	require.Equal(t, []string{"fish"}, complete("hookshim", "completion", "f"))
	require.Equal(t, []string{"gemini-cli"}, complete("hookshim", "log", "--tool", "gem"))
}

// zsh loads the script under compinit and registers _hookshim.
func TestCompletionZsh(t *testing.T) {
	zsh := needShell(t, "zsh")
	script := completionScript(t, "zsh")
	out, err := exec.Command(zsh, "-f", "-c", `autoload -U compinit && compinit -u -D && source "$1" && print -r -- $_comps[hookshim]`, "zsh", script).CombinedOutput()
	require.NoError(t, err, string(out))
	require.Equal(t, "_hookshim\n", string(out))
}

// fish loads the script and completes command lines (complete -C).
func TestCompletionFish(t *testing.T) {
	fish := needShell(t, "fish")
	script := completionScript(t, "fish")
	complete := func(line string) []string {
		t.Helper()
		cmd := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, script, line)
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
		var words []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			w, _, _ := strings.Cut(l, "\t")
			words = append(words, w)
		}
		return words
	}
	require.Equal(t, []string{"install"}, complete("hookshim inst"))
	require.Equal(t, []string{"claude-code", "cline"}, complete("hookshim install --provider cl"))
	require.Equal(t, []string{"--dry-run"}, complete("hookshim install --dr"))
	require.Equal(t, []string{"hookshim/destructive-shell"}, complete("hookshim policies hookshim/des"))
}
