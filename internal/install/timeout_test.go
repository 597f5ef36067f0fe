package install

import (
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// An entry registers at least the longest handler's timeout, in the
// tool's unit, and tells run; where the tool's limit is not the entry's
// to set, install says so instead.
func TestHandlerTimeouts(t *testing.T) {
	for _, tc := range []struct {
		p        *provider.Provider
		event    string
		handlers time.Duration
		entry    string // a substring of the entry written
		command  string // a substring of its command
		short    []string
	}{
		{provider.Claude, "Stop", 0, `"timeout": 30`, "--provider claude-code\"", nil},
		{provider.Claude, "Stop", 20 * time.Second, `"timeout": 30`, "--provider claude-code\"", nil},
		{provider.Claude, "Stop", 600 * time.Second, `"timeout": 600`, "--timeout 600\"", nil},
		{provider.Claude, "Stop", 35500 * time.Millisecond, `"timeout": 36`, "--timeout 36\"", nil},
		{provider.Gemini, "AfterAgent", 600 * time.Second, `"timeout": 600000`, "--timeout 600\"", nil},
		{provider.Codex, "Stop", 600 * time.Second, `"timeout": 600`, "--timeout 600\"", nil},
		// Codex clamps SessionEnd: its limit stays, and is said.
		{provider.Codex, "SessionEnd", 600 * time.Second, `"timeout": 3`, "--timeout 3\"", []string{"3s on every event"}},
		// Windsurf has no per-hook timeout.
		{provider.Windsurf, "post_cascade_response", 600 * time.Second, "", "--provider windsurf\"", []string{"30s on every event"}},
	} {
		t.Run(tc.p.ID+"/"+tc.event+"/"+tc.handlers.String(), func(t *testing.T) {
			env := Env{Getenv: func(string) string { return "" }, Handlers: tc.handlers}
			tg := *Target(tc.p, provider.ScopeProject)
			w, err := wanted(env, tc.p, tg, []string{tc.event})
			require.NoError(t, err)
			e := w.entry[tc.event]
			require.Contains(t, e, tc.entry)
			require.Contains(t, e, tc.command)
			if !strings.Contains(tg.Format.Entry, "{{timeout}}") {
				require.NotContains(t, e, "timeout")
			}
			require.Equal(t, tc.short, env.ShortTimeouts(tc.p, tg, []string{tc.event}))
		})
	}
}
