package run

import (
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/stretchr/testify/require"
)

// config.Argv is how allow, status and doctor see a handler's command: it
// must split every line the way the runner starts it.
func TestArgvMatchesRunner(t *testing.T) {
	for _, line := range []string{
		"./hooks/x.sh", `python3 "my hook.py" -v`, "sh -c 'exit 0'", "a | b", "echo $HOME",
		"FOO=1 x", "x > log", "cmd #comment", "~/bin/x", "x\ny", `a\ b`, "", "  ", "'unclosed",
	} {
		args, plain := plainWords(line)
		got, ok := config.Argv(line)
		require.Equal(t, plain, ok, line)
		require.Equal(t, args, got, line)
	}
}
