//go:build unix

package run

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A dialect's handler is started the way its tool starts it: through
// sh -c, a script without a #! line runs as a shell script, and shell
// syntax in the command works.
func TestJobShell(t *testing.T) {
	h := hook(t, "./noshebang.sh && echo '{}'")
	script := filepath.Join(h.Dir, "noshebang.sh")
	require.NoError(t, os.WriteFile(script, []byte("echo started >&2\n"), 0o755))

	res := (&Runner{}).RunJobs(context.Background(), []Job{{Hook: h, Shell: []string{"sh", "-c"}}})
	require.NoError(t, res[0].Err)
	require.Equal(t, 0, res[0].Exit)
	require.Equal(t, "started", res[0].Stderr)

	// Started directly, the same script has no interpreter.
	h = hook(t, script)
	require.NoError(t, os.WriteFile(script, []byte("echo started >&2\n"), 0o755))
	res = (&Runner{}).RunJobs(context.Background(), []Job{{Hook: h}})
	require.Error(t, res[0].Err)
}

// A handler with an EnvFile gets a fresh empty file of its own; what it
// wrote comes back as Exports and the file is gone after the call.
func TestJobEnvFile(t *testing.T) {
	for _, tc := range []struct {
		name, command string
		want          string
	}{
		{"exports", `test ! -s "$CLAUDE_ENV_FILE" && echo 'export A=1' >> "$CLAUDE_ENV_FILE" && echo "$CLAUDE_ENV_FILE" >&2`, "export A=1\n"},
		{"nothing", `echo "$CLAUDE_ENV_FILE" >&2`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := hook(t, tc.command)
			res := (&Runner{}).RunJobs(context.Background(), []Job{{Hook: h, Shell: []string{"sh", "-c"}, EnvFile: "CLAUDE_ENV_FILE"}})
			require.NoError(t, res[0].Err)
			require.Equal(t, tc.want, string(res[0].Exports))
			require.NotEmpty(t, res[0].Stderr)
			_, err := os.Stat(res[0].Stderr)
			require.ErrorIs(t, err, os.ErrNotExist)
		})
	}
}
