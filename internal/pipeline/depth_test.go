package pipeline

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func nested(levels int) string {
	return strings.Repeat("[", levels) + strings.Repeat("]", levels)
}

func TestTooDeep(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want bool
	}{
		{"shallow", `{"a":[1,2,{"b":3}]}`, false},
		{"at the limit", nested(MaxDepth), false},
		{"one past the limit", nested(MaxDepth + 1), true},
		{"objects count too", strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1), true},
		{"many brackets side by side", strings.Repeat("[]", 3*MaxDepth), false},
		{"brackets inside a string", `{"a":"` + strings.Repeat("[", 2*MaxDepth) + `"}`, false},
		{"an escaped quote does not end the string", `{"a":"\"` + strings.Repeat("{", 2*MaxDepth) + `"}`, false},
		{"an escaped backslash does", `{"a":"\\"` + strings.Repeat("[", MaxDepth+1), true},
		{"unclosed, not JSON", strings.Repeat("[", MaxDepth+1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, TooDeep([]byte(tc.in)))
		})
	}
}

// A payload nested millions of levels deep is refused before the
// validator, which recurses per level, sees it: the neutral answer, on
// time, with the reason.
func TestDeepPayloadIsRefused(t *testing.T) {
	getenv, dir := env(t, denyPolicy)
	raw := []byte(`{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","q":` + nested(3_000_000) + `},"tool_use_id":"t1"}`)
	ans, rec := Call(raw, nil, getenv, Options{Provider: "claude-code"})
	require.Equal(t, 0, ans.Exit)
	require.Empty(t, ans.Stdout)
	require.Equal(t, []string{"payload nests arrays or objects more than 200000 levels deep; not read"}, rec.Problems)
}
