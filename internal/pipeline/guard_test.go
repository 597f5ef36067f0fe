package pipeline

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Only the mark of a running hookshim makes a call nested; HOOKSHIM_DEPTH
// alone, a made-up token, a token whose call has ended or a token file
// others could have written are stray, and the policies run.
func TestRecursionGuard(t *testing.T) {
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state}
	getenv := func(k string) string { return env[k] }
	check := func(wantNested, wantStray bool) {
		t.Helper()
		in, stray := nestedCall(getenv)
		require.Equal(t, wantNested, in, "nested")
		require.Equal(t, wantStray, stray, "stray")
	}
	check(false, false)
	env["HOOKSHIM_DEPTH"] = "1"
	check(false, true)
	env[guardVar] = strings.Repeat("ab", 16)
	check(false, true)
	env[guardVar] = "../../etc/passwd"
	check(false, true)

	mark, done, err := guard(getenv)
	require.NoError(t, err)
	for _, kv := range mark {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	check(true, false)
	if runtime.GOOS != "windows" {
		tok := filepath.Join(state, "hookshim", "guard", env[guardVar])
		require.NoError(t, os.Chmod(tok, 0o666))
		check(false, true)
		require.NoError(t, os.Chmod(tok, 0o600))
		check(true, false)
	}
	done(false)
	check(false, true)
}
