package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/stretchr/testify/require"
)

// The digest's layout is what existing allowances were recorded with:
// changing it would revoke every one of them.
func TestDigestLayout(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "guard.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o755))
	path := filepath.Join(dir, ".openhook.json")
	content := `{"spec": "hooks/0.1", "hooks": [{"name": "g", "event": "before_tool_execute", "handler": {"type": "command", "command": "./guard.sh | tee $(pwd)/log"}}]}`
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	f, err := config.Load(path)
	require.NoError(t, err)

	got, scripts, err := Digest(f)
	require.NoError(t, err)
	require.Equal(t, []string{script}, scripts)
	want := sha256.Sum256([]byte(fmt.Sprintf("%s\n%d\n%s\n%s\n%d\n%s", path, len(content), content, script, 17, "#!/bin/sh\nexit 0\n")))
	require.Equal(t, hex.EncodeToString(want[:]), got)
}

func TestWordsCutsShellOperators(t *testing.T) {
	require.Equal(t, []string{"a", "b", "c", "d", "e", "f"}, words("a|b&&c;(d) <e >f"))
	require.Equal(t, []string{"x", "pwd", "/y"}, words("x $(pwd)/y"))
}
