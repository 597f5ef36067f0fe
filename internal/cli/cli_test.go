package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every command of the table answers -h and --help with its usage on
// stdout, exit 0, and does nothing else: no payload read, no file written.
func TestEveryCommandAnswersHelp(t *testing.T) {
	require.NotEmpty(t, commands)
	for _, c := range commands {
		u := commandUsage(c.name)
		require.NotEmpty(t, u, "command %q has no block in the usage text", c.name)
		require.True(t, strings.HasPrefix(u, "  hookshim "+c.name), u)
		for _, flag := range []string{"--help", "-h"} {
			args := []string{c.name, flag}
			if c.name == "help" {
				args = []string{"help", c.name}
			}
			var stdout, stderr bytes.Buffer
			code := Main(args, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
			require.Equal(t, 0, code, "hookshim %s: %s", strings.Join(args, " "), stderr.String())
			require.Empty(t, stderr.String(), "hookshim %s", strings.Join(args, " "))
			require.Contains(t, stdout.String(), u, "hookshim %s", strings.Join(args, " "))
		}
	}
}

// A help flag anywhere among the arguments wins, also after other flags.
func TestHelpAmongOtherArguments(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"install", "--provider", "cursor", "--help"}, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
	require.Equal(t, 0, code)
	require.Contains(t, stdout.String(), "hookshim install --provider ID|--all")
	require.NotContains(t, stdout.String(), "hookshim uninstall")
	require.False(t, helpAsked([]string{"--", "--help"}), "after -- it is an argument")
}

// Every command the usage text documents is in the table.
func TestUsageNamesOnlyCommands(t *testing.T) {
	_, body, _ := strings.Cut(usage, "\nUsage:\n")
	body, _, _ = strings.Cut(body, "\n\n")
	for _, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, "  hookshim "); ok {
			name, _, _ := strings.Cut(rest, " ")
			require.NotNil(t, lookup(name), "usage documents %q, which is not a command", name)
		}
	}
}

// A bad flag is reported in hookshim's words, with the way to the
// command's one usage text; flag's own listing of the flags never shows.
func TestBadFlag(t *testing.T) {
	for _, name := range []string{"simulate", "allow", "deny", "trust", "install", "uninstall", "import", "status", "doctor", "log", "explain", "providers", "policies"} {
		var stdout, stderr bytes.Buffer
		code := Main([]string{name, "--nosuch"}, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
		require.Equal(t, 2, code, name)
		require.Empty(t, stdout.String(), name)
		require.Equal(t, "hookshim: error: flag provided but not defined: -nosuch\nhookshim: hint: run 'hookshim "+name+" --help' for its usage\n", stderr.String(), name)
	}
}
