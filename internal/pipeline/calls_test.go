package pipeline

import (
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

const destructivePolicy = `{"spec": "hooks/0.1", "hooks": [
  {"name": "no-destruction", "event": "before_tool_execute", "matcher": "shell", "use": "hookshim/destructive-shell"}
]}`

// toolCalls is an Agent Host envelope of the given calls, run in dir.
func toolCalls(dir string, calls ...string) []byte {
	return []byte(`{"sessionId":"s1","cwd":"` + dir + `","toolCalls":[` + strings.Join(calls, ",") + `]}`)
}

func bash(command string) string {
	return `{"name":"bash","args":"{\"command\":\"` + command + `\"}"}`
}

// Each call of an envelope is judged; the most restrictive decision
// answers for all, whichever call it is about.
func TestCallsMostRestrictiveWins(t *testing.T) {
	getenv, dir := env(t, destructivePolicy)
	for _, tc := range []struct {
		name  string
		calls []string
		want  decision.Kind
	}{
		{"harmless", []string{bash("ls"), bash("git status")}, decision.None},
		{"last", []string{bash("ls"), bash("git status"), bash("rm -rf /")}, decision.Deny},
		{"first", []string{bash("rm -rf ~"), bash("ls")}, decision.Deny},
		{"unsure beside harmless", []string{bash("ls"), bash(`rm -rf \\\"$X\\\"/`)}, decision.Ask},
		{"deny beats unsure", []string{bash(`rm -rf \\\"$X\\\"/`), bash("rm -rf /")}, decision.Deny},
		{"unreadable", []string{bash("ls"), `{"name":"bash","args":"rm -rf /"}`}, decision.Ask},
		{"nameless", []string{`{"args":"{\"command\":\"rm -rf /\"}"}`}, decision.Ask},
		{"not an object", []string{`"rm -rf /"`}, decision.Ask},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ans, rec := Call(toolCalls(dir, tc.calls...), nil, getenv, Options{})
			require.Equal(t, "vscode-copilot", rec.Provider.ID)
			require.Equal(t, 0, ans.Exit)
			got := decision.None
			if rec.Verdict != nil {
				got = rec.Verdict.Decision
			}
			require.Equal(t, tc.want, got, "%s\n%v", ans.Stdout, rec.Problems)
			require.Len(t, rec.Results, len(tc.calls), "one policy run per call")
			if tc.want == decision.Deny {
				require.Contains(t, string(ans.Stdout), `"permissionDecision":"deny"`)
			}
		})
	}
}

// Without a policy in force nothing is asked, not even about a call that
// cannot be read: there is no one whose judgement it escapes.
func TestCallsUnreadWithoutPolicy(t *testing.T) {
	getenv, dir := env(t, "")
	ans, rec := Call(toolCalls(dir, `{"name":"bash","args":"rm -rf /"}`), nil, getenv, Options{})
	require.Empty(t, ans.Stdout)
	require.Nil(t, rec.Verdict)
}

// More calls than the bound: the first are judged, the rest are unsure.
func TestCallsTooMany(t *testing.T) {
	getenv, dir := env(t, destructivePolicy)
	calls := make([]string, provider.MaxCalls+5)
	for i := range calls {
		calls[i] = bash("ls")
	}
	ans, rec := Call(toolCalls(dir, calls...), nil, getenv, Options{})
	require.Equal(t, decision.Ask, rec.Verdict.Decision)
	require.Contains(t, string(ans.Stdout), `"permissionDecisionReason":"hookshim judges at most 64 tool calls of one hook call and this one has more; check the rest by hand"`)
	require.Len(t, rec.Results, provider.MaxCalls)
	require.Contains(t, rec.Problems, "hookshim judges at most 64 tool calls of one hook call and this one has more; check the rest by hand")

	// A deny among the judged ones still denies.
	calls[3] = bash("rm -rf /")
	_, rec = Call(toolCalls(dir, calls...), nil, getenv, Options{})
	require.Equal(t, decision.Deny, rec.Verdict.Decision)
}

// Calls left when the deadline has passed are not judged: unsure.
func TestCallsPastTheDeadline(t *testing.T) {
	getenv, dir := env(t, destructivePolicy)
	opts := Options{Started: time.Now().Add(-time.Hour), Timeout: time.Minute}
	_, rec := Call(toolCalls(dir, bash("ls"), bash("ls"), bash("rm -rf /")), nil, getenv, opts)
	require.Equal(t, decision.Ask, rec.Verdict.Decision)
	require.Contains(t, rec.Problems, "the deadline passed after 1 of the 3 tool calls of this hook call; hookshim did not judge the rest: check them by hand")
}
