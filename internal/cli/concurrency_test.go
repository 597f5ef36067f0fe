package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Many calls at once — one session firing hooks in parallel — each append
// one whole line to the shared log and share the per-user state without
// corrupting it.
func TestConcurrentCallsShareFilesSafely(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "hookshim.log")
	cfg := filepath.Join(dir, "openhook.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"openhook":"0.1","hooks":[{"command":"true","events":["tool.start"]}]}`), 0o644))
	env := map[string]string{
		"HOME":            dir,
		"XDG_RUNTIME_DIR": filepath.Join(dir, "run"),
		"XDG_STATE_HOME":  filepath.Join(dir, "state"),
		"HOOKSHIM_LOG":    log,
	}
	getenv := func(k string) string { return env[k] }
	const n = 64
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			payload := fmt.Sprintf(`{"session_id":"s","transcript_path":"/h/.claude/projects/p/s.jsonl","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo %d %s"},"tool_use_id":"toolu_%03d"}`,
				dir, i, strings.Repeat("x", 3000), i%8) // some calls share an id: duplicates
			var out, errb bytes.Buffer
			code := cmdRun([]string{"--provider", "claude-code", "--config", cfg}, strings.NewReader(payload), &out, &errb, getenv)
			require.Equal(t, 0, code, errb.String())
		}(i)
	}
	wg.Wait()
	f, err := os.Open(log)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	lines := 0
	for sc.Scan() {
		lines++
		require.Truef(t, json.Valid(sc.Bytes()), "log line %d is not one JSON document: %.200s", lines, sc.Text())
	}
	require.Equal(t, n, lines)
}
