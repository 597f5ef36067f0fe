package provider

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGrokEventNames: grokEventName knows exactly Grok.Events, in the
// docs' PascalCase, in the snake_case Grok 1.0.0 sent and in Cursor's
// camelCase, and nothing else.
func TestGrokEventNames(t *testing.T) {
	name := func(v string) string {
		return grokEventName(Payload{Raw: []byte(`{"hookEventName":"` + v + `"}`)})
	}
	for _, s := range Grok.Events {
		require.Equal(t, s.Native, name(s.Native))
		snake := grokSnake(s.Native)
		require.Regexp(t, `^[a-z]+(_[a-z]+)*$`, snake)
		require.Equal(t, s.Native, name(snake), snake)
		// Cursor's camelCase spelling, which Grok reads in .cursor/hooks.json.
		camel := strings.ToLower(s.Native[:1]) + s.Native[1:]
		require.Equal(t, s.Native, name(camel), camel)
	}
	for _, v := range []string{"", "BeforeTool", "pre__tool_use", "_stop", "stop_", "PRE_TOOL_USE"} {
		require.Empty(t, name(v), v)
	}
	require.Equal(t, "pre_tool_use", grokSnake("PreToolUse"))
	require.Equal(t, "post_tool_use_failure", grokSnake("PostToolUseFailure"))
	require.Equal(t, "stop", grokSnake("Stop"))
}
