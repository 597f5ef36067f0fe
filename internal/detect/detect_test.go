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

// TestConfidence: --explain rates a detection without --provider by the
// payload's lead over the runner-up.
func TestConfidence(t *testing.T) {
	claude := `{"session_id":"s","hook_event_name":"PreToolUse","tool_use_id":"toolu_01abc","prompt_id":"p","transcript_path":"/home/u/.claude/projects/p/s.jsonl"}`
	cases := []struct {
		name, payload, hint, want string
		env                       map[string]string
	}{
		{"payload leads by far", claude, "", Certain, nil},
		{"a small lead", `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","prompt_id":"p","tool_name":"Bash"}`, "", Likely, nil},
		{"a hint decides", claude, "claude-code", "", nil},
		{"nothing found", `{}`, "", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := provider.NewPayload([]byte(c.payload), func(k string) string { return c.env[k] })
			res := Detect(p, c.hint)
			got, why := res.Confidence()
			require.Equal(t, c.want, got, "%s\n%s", why, res.Explain())
			if got != "" {
				require.Contains(t, res.Explain(), "confidence: "+got)
			}
		})
	}
}

// TestConfidenceMargins: a tie is a guess, a lead made by environment
// variables alone is likely, a lead of CertainMargin from the payload is
// certain.
func TestConfidenceMargins(t *testing.T) {
	a, b := provider.Claude, provider.Qoder
	cases := []struct {
		name   string
		scores []Score
		want   string
	}{
		{"tie", []Score{{Provider: a, Payload: 4}, {Provider: b, Payload: 4}}, Guess},
		{"env only", []Score{{Provider: b, Payload: 2, Env: 4}, {Provider: a, Payload: 3}}, Likely},
		{"small payload lead", []Score{{Provider: a, Payload: 7}, {Provider: b, Payload: 3}}, Likely},
		{"payload lead", []Score{{Provider: a, Payload: 8}, {Provider: b, Payload: 3}}, Certain},
		{"alone", []Score{{Provider: a, Payload: 6}, {Provider: b, Payload: -3}}, Certain},
		{"alone and weak", []Score{{Provider: a, Payload: 3}}, Likely},
	}
	for _, c := range cases {
		got, why := Result{Provider: c.scores[0].Provider, Scores: c.scores}.Confidence()
		require.Equal(t, c.want, got, "%s: %s", c.name, why)
	}
}
