package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestShapesAgainstFixtures: every recorded or documented payload of a
// tool with shapes is matched against all of them. A payload that names
// no event, of an event some shape names, is named by that shape; no
// payload is ever given another event than its own.
func TestShapesAgainstFixtures(t *testing.T) {
	for _, pr := range All {
		if len(pr.Shapes) == 0 {
			continue
		}
		dir := filepath.Join("..", "..", "testdata", "payloads", pr.ID)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		used := map[string]bool{}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
			require.NoError(t, err)
			want, _, _ := strings.Cut(strings.TrimSuffix(e.Name(), ".json"), "-")
			p := NewPayload(raw, func(string) string { return "" })
			got, note, err := pr.InferEvent(p)
			named := pr.EventName(p)
			if err == nil && named != "" {
				// Never asked for (the payload names its event), but a
				// shape that fits must at least mean the same thing.
				require.Equal(t, pr.Spec(named).Canonical, pr.Spec(got).Canonical, "%s/%s: %s", pr.ID, e.Name(), note)
				continue
			}
			if err == nil {
				require.Equal(t, want, got, "%s/%s: %s", pr.ID, e.Name(), note)
				used[got] = true
				continue
			}
			if named == "" {
				for _, s := range pr.Shapes {
					require.NotEqual(t, want, s.Event, "%s/%s names no event and is not inferred: %v", pr.ID, e.Name(), err)
				}
			}
		}
		for _, s := range pr.Shapes {
			require.True(t, used[s.Event], "%s: no fixture in %s is named by the shape %s", pr.ID, dir, s)
			require.NotNil(t, pr.Spec(s.Event), "%s: the shape %s names an unknown event", pr.ID, s)
		}
	}
}

func TestInferEvent(t *testing.T) {
	for _, c := range []struct {
		pr      *Provider
		payload string
		event   string // "" when not inferred
		err     string
	}{
		{Copilot, `{"toolName":"bash","toolArgs":{"command":"ls"}}`, "preToolUse", ""},
		{Copilot, `{"toolName":"bash","toolArgs":"{}","toolResult":{"resultType":"success"}}`, "postToolUse", ""},
		{Copilot, `{"toolName":"view","toolArgs":{},"error":"Path does not exist"}`, "postToolUseFailure", ""},
		{Copilot, `{"prompt":"hi"}`, "userPromptSubmitted", ""},
		{Copilot, `{"prompt":"hi","agentId":"a1"}`, "userPromptSubmitted", ""},
		{Copilot, `{"prompt":"hi","transformedPrompt":"hi!"}`, "userPromptTransformed", ""},
		{Copilot, `{"stopReason":"end_turn","stop_hook_active":false}`, "agentStop", ""},
		{Copilot, `{"agentId":"a1","stopReason":"end_turn"}`, "subagentStop", ""},
		{Copilot, `{"agentId":"a1","agentName":"explore"}`, "subagentStart", ""},
		// A tool call and a prompt at once: two shapes fit.
		{Copilot, `{"toolName":"bash","toolArgs":{},"prompt":"hi"}`, "",
			"GitHub Copilot CLI sent no event name and the payload's shape fits more than one event: add --event preToolUse or --event userPromptSubmitted to hookshim's command"},
		// The common fields only: no shape fits.
		{Copilot, `{"sessionId":"s","timestamp":1795336013207,"cwd":"."}`, "",
			"GitHub Copilot CLI sent no event name and the payload's shape names none: add --event NAME to hookshim's command"},
		{Amplifier, `{"tool_name":"bash","tool_input":{"command":"ls"},"timestamp":"2026-11-22T08:21:40.518204Z"}`, "PreToolUse", ""},
		{Amplifier, `{"tool_name":"","tool_input":{},"tool_result":{}}`, "PostToolUse", ""},
		{Amplifier, `{"prompt":"hi"}`, "UserPromptSubmit", ""},
		{Amplifier, `{"session_id":"s","trigger":"resume"}`, "SessionStart", ""},
		// Amplifier's data passed through (Stop, PreCompact, ...), and a
		// tool call in it: only --event can tell.
		{Amplifier, `{"session_id":"s","parent_id":null,"timestamp":"2026-11-22T08:22:16.019347Z"}`, "",
			"Amplifier sent no event name and the payload's shape names none: add --event NAME"},
		{Amplifier, `{"session_id":"s","parent_id":null,"tool_name":"bash","tool_input":{}}`, "",
			"shape names none"},
		{Amplifier, `{"session_id":"s","timestamp":"2026-11-22T08:40:02.215398Z"}`, "", "shape names none"},
		// Tools without shapes keep the old message.
		{Cline, `{"taskId":"t"}`, "", "Cline sent no event name; register hookshim with --event NAME"},
	} {
		p := NewPayload([]byte(c.payload), func(string) string { return "" })
		got, note, err := c.pr.InferEvent(p)
		require.Equal(t, c.event, got, "%s %s", c.pr.ID, c.payload)
		if c.err != "" {
			require.ErrorContains(t, err, c.err, c.payload)
			require.NotContains(t, err.Error(), "\n")
			continue
		}
		require.NoError(t, err)
		require.Contains(t, note, "event "+c.event+" inferred from the payload's shape (")
	}
}

// TestShapesDocumented: docs/providers.md states every rule.
func TestShapesDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "providers.md"))
	require.NoError(t, err)
	for _, pr := range All {
		for _, s := range pr.Shapes {
			row := "| " + s.keys() + " | `" + s.Event + "` |"
			require.True(t, strings.Contains(string(doc), row), "docs/providers.md lacks the row of %s: %s", pr.ID, row)
		}
	}
}
