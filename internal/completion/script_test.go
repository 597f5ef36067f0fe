package completion

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/script.*")

// testCommands is a small fixed table: the scripts' goldens and the shells
// below do not change when a tool or a policy is added.
var testCommands = []Command{
	{Name: "install", Flags: []Flag{
		{"--provider", &Arg{Words: []string{"claude-code", "cline", "codex"}}},
		{"--all", nil},
		{"--bin", &Arg{Files: true}},
		{"--dry-run", nil},
	}},
	{Name: "run", Flags: []Flag{
		{"--log", &Arg{Words: []string{"off"}, Files: true}},
		{"--event", &Arg{}},
	}},
	{Name: "allow", Args: Arg{Files: true}},
	{Name: "completion", Args: Arg{Words: []string{"bash", "zsh", "fish"}}},
	{Name: "version"},
}

// script writes the shell's script for testCommands into a file, and
// checks it against its golden.
func script(t *testing.T, shell string) string {
	t.Helper()
	s, err := Script(shell, testCommands)
	require.NoError(t, err)
	golden := filepath.Join("testdata", "script."+shell)
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(s), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	require.Equal(t, string(want), s, "go test ./internal/completion -update rewrites %s", golden)
	path := filepath.Join(t.TempDir(), "hookshim."+shell)
	require.NoError(t, os.WriteFile(path, []byte(s), 0o644))
	return path
}

// shell is the shell's path, and a folder to run it in that holds one
// file, out.log, for the file names it completes.
func shell(t *testing.T, name string) (path, dir string) {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed", name)
	}
	dir = t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "out.log"), nil, 0o644))
	return path, dir
}

func run(t *testing.T, dir, name string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	var words []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if w, _, _ := strings.Cut(l, "\t"); w != "" {
			words = append(words, w)
		}
	}
	return words
}

// bash loads the script, registers it, and completes words as it would
// at a prompt (COMPREPLY; an empty one falls back to file names).
func TestBash(t *testing.T) {
	path := script(t, "bash")
	bash, dir := shell(t, "bash")
	require.Equal(t, []string{"complete", "-o", "default", "-F", "_hookshim", "hookshim"},
		strings.Fields(strings.Join(run(t, dir, bash, "--norc", "--noprofile", "-c", `source "$1" && complete -p hookshim`, "bash", path), " ")))
	for _, tc := range []struct {
		words []string
		want  []string
	}{
		{[]string{"inst"}, []string{"install"}},
		{[]string{""}, []string{"install", "run", "allow", "completion", "version"}},
		{[]string{"install", "--"}, []string{"--provider", "--all", "--bin", "--dry-run"}},
		{[]string{"install", "--dr"}, []string{"--dry-run"}},
		{[]string{"install", "--provider", "cl"}, []string{"claude-code", "cline"}},
		{[]string{"install", "--all", "--provider", "co"}, []string{"codex"}},
		{[]string{"run", "--log", "o"}, []string{"out.log", "off"}},
		{[]string{"run", "--event", "o"}, nil},
		{[]string{"completion", "f"}, []string{"fish"}},
		{[]string{"version", ""}, nil},
		{[]string{"allow", "o"}, nil},
	} {
		line := `source "$1"; shift; COMP_WORDS=(hookshim "$@"); COMP_CWORD=$#; _hookshim; printf '%s\n' "${COMPREPLY[@]}"`
		got := run(t, dir, bash, append([]string{"--norc", "--noprofile", "-c", line, "bash", path}, tc.words...)...)
		require.Equal(t, tc.want, got, "hookshim %s", strings.Join(tc.words, " "))
	}
}

// zsh loads the script under compinit, registers _hookshim, and offers the
// words of the case the command line reaches (compadd and _files stand-ins
// print what they are given; zsh filters by the typed prefix itself).
func TestZsh(t *testing.T) {
	path := script(t, "zsh")
	zsh, dir := shell(t, "zsh")
	require.Equal(t, []string{"_hookshim"}, run(t, dir, zsh, "-f", "-c", `autoload -U compinit && compinit -u -D && source "$1" && print -r -- $_comps[hookshim]`, "zsh", path))
	// compinit takes seconds: the cases stand compdef in for it.
	init := `compdef() { }; source "$1" && shift; `
	for _, tc := range []struct {
		words []string
		want  []string
	}{
		{[]string{"i"}, []string{"install", "run", "allow", "completion", "version"}},
		{[]string{"install", "-"}, []string{"--provider", "--all", "--bin", "--dry-run"}},
		{[]string{"install", "--provider", "c"}, []string{"claude-code", "cline", "codex"}},
		{[]string{"run", "--log", "o"}, []string{"off", "_files"}},
		{[]string{"run", "--event", "o"}, nil},
		{[]string{"allow", "o"}, []string{"_files"}},
		{[]string{"completion", ""}, []string{"bash", "zsh", "fish"}},
		{[]string{"version", ""}, nil},
	} {
		line := init + `compadd() { shift; print -l -- "$@" }; _files() { print _files }; words=(hookshim "$@"); CURRENT=$(( $# + 1 )); _hookshim`
		got := run(t, dir, zsh, append([]string{"-f", "-c", line, "zsh", path}, tc.words...)...)
		require.Equal(t, tc.want, got, "hookshim %s", strings.Join(tc.words, " "))
	}
}

// fish loads the script and completes command lines (complete -C).
func TestFish(t *testing.T) {
	path := script(t, "fish")
	fish, dir := shell(t, "fish")
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"hookshim inst", []string{"install"}},
		{"hookshim install --dr", []string{"--dry-run"}},
		{"hookshim install --provider cl", []string{"claude-code", "cline"}},
		{"hookshim run --log o", []string{"off", "out.log"}},
		{"hookshim allow o", []string{"out.log"}},
		{"hookshim completion f", []string{"fish"}},
		{"hookshim version o", nil},
	} {
		got := run(t, dir, fish, "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, path, tc.line)
		require.Equal(t, tc.want, got, tc.line)
	}
}
