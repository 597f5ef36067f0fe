package detect_test

import (
	"testing"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// TestDecideIsDetect: whatever the payload and the hint, Decide reaches
// Detect's outcome, and every score it keeps is Detect's. Payloads of one
// tool sent with another's hint are where pruning could go wrong: the
// hint must then be overruled exactly as Detect overrules it.
func TestDecideIsDetect(t *testing.T) {
	hints := []string{"", "no-such-tool"}
	for _, pr := range provider.All {
		hints = append(hints, pr.ID)
	}
	pruned := 0
	for _, s := range hookshim.Samples() {
		for _, env := range []map[string]string{nil, {"CURSOR_TRACE_ID": "x", "GEMINI_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/p"}} {
			p := provider.NewPayload(s.Raw, func(k string) string { return env[k] })
			for _, hint := range hints {
				want, got := detect.Detect(p, hint), detect.Decide(p, hint)
				msg := s.Name + " of " + s.Provider.ID + " with --provider " + hint
				require.Equal(t, want.Provider, got.Provider, msg)
				require.Equal(t, want.Overruled, got.Overruled, msg)
				for _, gs := range got.Scores {
					require.Contains(t, want.Scores, gs, msg)
				}
				if len(got.Scores) < len(want.Scores) {
					pruned++
				}
			}
		}
	}
	require.Greater(t, pruned, 100, "Decide should skip providers that cannot beat a hint")
}
