package detect

import (
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// Score.Matched is a bit set of the provider's signals.
func TestSignalsFitTheMatchedBits(t *testing.T) {
	for _, p := range provider.All {
		require.LessOrEqual(t, len(p.Signals), 64, "%s: more signals than Score.Matched has bits", p.ID)
	}
}

func TestMatchedSignals(t *testing.T) {
	p := provider.NewPayload([]byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_use_id":"toolu_01abc","prompt_id":"p"}`), nil)
	res := Detect(p, "")
	require.Equal(t, "claude-code", res.Provider.ID)
	var descs []string
	for _, s := range res.Scores[0].MatchedSignals() {
		descs = append(descs, s.Desc())
	}
	require.Contains(t, descs, `tool_use_id starts with "toolu_"`)
	require.Contains(t, descs, `payload has "prompt_id"`)
}
