package install

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInstallJSONC: config files with comments and trailing commas (the
// tools read them) are installed into with both kept, and uninstall gives
// them back byte for byte.
func TestInstallJSONC(t *testing.T) {
	n := 0
	for _, p := range installable() {
		jsonc, ok := input(t, p, "jsonc")
		if !ok {
			continue
		}
		n++
		t.Run(p.ID, func(t *testing.T) {
			tg := projectTarget(t, p)
			events := defaultEvents(t, p)
			env := testEnv(t)
			path, _ := env.Path(tg)
			writeInput(t, tg, path, jsonc)
			run(t, env, p, tg, events)
			got := readTarget(t, tg, path)
			golden(t, p, "jsonc", got)
			require.NoError(t, checkJSON(got))
			require.Empty(t, run(t, env, p, tg, events), "a second install changed something")
			run(t, env, p, tg, nil)
			require.Equal(t, jsonc, readInput(t, tg, path), "uninstall did not restore the file")

			// Edited by the user in between: hookshim's entries go, the
			// edit and everything the file had before stay.
			run(t, env, p, tg, events)
			edited := "// edited after install\n" + readInput(t, tg, path)
			require.NoError(t, os.WriteFile(path, []byte(edited), 0o644))
			run(t, env, p, tg, nil)
			require.Equal(t, "// edited after install\n"+jsonc, readInput(t, tg, path))
		})
	}
	require.NotZero(t, n, "no testdata/install/*/jsonc.* input")
}
