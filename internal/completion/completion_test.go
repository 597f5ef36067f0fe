package completion

import (
	"testing"

	"github.com/hookshim/hookshim/internal/policy"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// Each synopsis is read as the scripts need it: flags with and without a
// value, alternatives, continuation lines, and the placeholders.
func TestCommands(t *testing.T) {
	files := &Arg{Files: true}
	for _, tc := range []struct {
		block string
		want  Command
	}{{
		block: "  hookshim version\n      Print the version.\n",
		want:  Command{Name: "version"},
	}, {
		block: "  hookshim run [--provider ID] [--event NAME] [--log FILE|off] [--explain]\n      Answer one hook call.\n",
		want: Command{Name: "run", Flags: []Flag{
			{"--provider", &Arg{Words: provider.IDs()}},
			{"--event", &Arg{}},
			{"--log", &Arg{Words: []string{"off"}, Files: true}},
			{"--explain", nil},
		}},
	}, {
		block: "  hookshim install --provider ID|--all [--scope project|user]\n" +
			"                   [--bin PATH] [--dry-run]\n" +
			"      Register hookshim, with [--flags] in the description\n" +
			"        and a deeper description line.\n",
		want: Command{Name: "install", Flags: []Flag{
			{"--provider", &Arg{Words: provider.IDs()}},
			{"--all", nil},
			{"--scope", &Arg{Words: []string{"project", "user"}}},
			{"--bin", files},
			{"--dry-run", nil},
		}},
	}, {
		// "--user]" closes its own block: it takes no value.
		block: "  hookshim extend [--config FILE | --user] PATH|URL\n      Extend.\n",
		want: Command{Name: "extend", Flags: []Flag{
			{"--config", files},
			{"--user", nil},
		}, Args: Arg{Files: true}},
	}, {
		block: "  hookshim policies [--markdown] [POLICY]\n      List.\n",
		want:  Command{Name: "policies", Flags: []Flag{{"--markdown", nil}}, Args: Arg{Words: policy.Names()}},
	}, {
		block: "  hookshim example-policy deny-destructive|prompt-context\n",
		want:  Command{Name: "example-policy", Args: Arg{Words: []string{"deny-destructive", "prompt-context"}}},
	}, {
		block: "  hookshim trust [status] [PATH]\n",
		want:  Command{Name: "trust", Args: Arg{Words: []string{"status"}, Files: true}},
	}} {
		t.Run(tc.want.Name, func(t *testing.T) {
			require.Equal(t, []Command{tc.want}, Commands([]string{tc.block}))
		})
	}
}

// COMMAND stands for the commands of the blocks, in their order.
func TestCommandPlaceholder(t *testing.T) {
	cmds := Commands([]string{"  hookshim run\n", "  hookshim help [COMMAND]\n"})
	require.Equal(t, Arg{Words: []string{"run", "help"}}, cmds[1].Args)
}

func TestScriptUnknownShell(t *testing.T) {
	_, err := Script("tcsh", nil)
	require.EqualError(t, err, `no completion script for shell "tcsh"`)
}
