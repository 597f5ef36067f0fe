package detect_test

import (
	"testing"

	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// TestLookalikes: tools that share a key with Crush, Auggie or Letta Code
// are not taken for them, and their own payloads are recognised from the
// payload alone or from the tool's environment markers.
func TestLookalikes(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		name    string
		payload string
		env     func(string) string
		not     string // the provider this must not be taken for
		is      string // the provider it must be ("" when unknown)
	}{
		// Goose names the event under "event" too (hooks inside plugins).
		{"goose PreToolUse", `{"event":"PreToolUse","session_id":"20261125_1","matcher_context":"developer__shell","tool_name":"developer__shell","tool_input":{"command":"ls","timeout_secs":null},"working_dir":"/home/dev/project","tool_call_id":"call_1"}`,
			env(), "crush", ""},
		// A Goose lifecycle payload that carries working_dir is still
		// Goose's: OpenHands names its event under event_type, never event.
		{"goose SessionStart with working_dir", `{"event":"SessionStart","session_id":"20261125_3","working_dir":"/home/dev/project"}`,
			env(), "openhands", "goose"},
		// OpenHands sends event_type with working_dir.
		{"openhands PreToolUse", `{"event_type":"PreToolUse","tool_name":"terminal","tool_input":{"command":"ls"},"tool_response":null,"message":null,"session_id":"abc","working_dir":"/repo","metadata":{}}`,
			env(), "letta-code", ""},
		// Cursor sends conversation_id and workspace_roots with cursor_version.
		{"cursor preToolUse", `{"conversation_id":"c1","generation_id":"g1","hook_event_name":"preToolUse","workspace_roots":["/home/dev/project"],"cursor_version":"2.3.0","tool_name":"Shell","tool_input":{"command":"ls"}}`,
			env(), "auggie", "cursor"},
		// Crush's own payload, and its environment markers alone.
		{"crush", `{"event":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"bash","tool_input":{"command":"ls"}}`,
			env(), "", "crush"},
		{"crush by env", `{"event":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"mcp_github_get","tool_input":{}}`,
			env("CRUSH", "1", "AGENT", "crush", "CRUSH_EVENT", "PreToolUse"), "", "crush"},
		{"auggie", `{"hook_event_name":"Stop","conversation_id":"c","workspace_roots":["/p"],"agent_stop_cause":"end_turn"}`,
			env(), "", "auggie"},
		{"letta", `{"event_type":"Stop","working_directory":"/p","stop_reason":"end_turn"}`,
			env(), "", "letta-code"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			det := detect.Detect(provider.Payload{Raw: []byte(c.payload), Env: c.env}, "")
			got := ""
			if det.Provider != nil {
				got = det.Provider.ID
			}
			if c.not != "" {
				require.NotEqual(t, c.not, got, det.Explain())
			}
			if c.is != "" {
				require.Equal(t, c.is, got, det.Explain())
			}
		})
	}
}
