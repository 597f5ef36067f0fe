package pipeline

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A call without a call id (Gemini CLI) is never answered by another call
// that looks like it: the handler sees "main" in the second call only, in a
// different field each time, and must be asked again.
func TestDuplicateDetectionNeverAnswersAnotherCall(t *testing.T) {
	unixOnly(t)
	const policy = `{"spec": "hooks/0.1", "hooks": [
  {"name": "no-push-main", "event": "before_tool_execute", "matcher": "shell",
   "handler": {"type": "command", "command": "grep -q main && echo '{\"decision\":\"deny\",\"reason\":\"main\"}' || true"}}
]}`
	feature := func(dir string) string {
		return `{"session_id":"19b5552b","transcript_path":"/h/.gemini/tmp/p/chats/s.jsonl","cwd":"` + dir + `/feature","hook_event_name":"BeforeTool","timestamp":"2026-11-22T08:14:16.912Z","tool_name":"run_shell_command","tool_input":{"command":"git push --force","description":"push"}}`
	}
	for name, other := range map[string]func(string) string{
		"another folder": func(s string) string { return strings.Replace(s, "/feature", "/main", 1) },
		"another input key": func(s string) string {
			return strings.Replace(s, `"description"`, `"dir_path":"main","description"`, 1)
		},
		"a field hookshim does not read": func(s string) string { return strings.Replace(s, `"cwd"`, `"branch":"main","cwd"`, 1) },
		"another transcript":             func(s string) string { return strings.Replace(s, "chats/s", "chats/main", 1) },
		"a description the tool showed":  func(s string) string { return strings.Replace(s, `"push"}`, `"push main"}`, 1) },
	} {
		getenv, dir := env(t, policy)
		first := feature(dir)
		ans, rec := Call([]byte(first), nil, getenv, Options{Provider: "gemini-cli"})
		require.Empty(t, rec.Verdict.Decision, name)
		require.NotEmpty(t, rec.Call, name)
		ans, rec = Call([]byte(other(first)), nil, getenv, Options{Provider: "gemini-cli"})
		require.Empty(t, rec.ReusedFrom, name)
		require.Contains(t, string(ans.Stdout), `"deny"`, name)

		// The same payload again is a duplicate: its answer is shared.
		_, rec = Call([]byte(first), nil, getenv, Options{Provider: "gemini-cli"})
		require.NotEmpty(t, rec.ReusedFrom, name)
	}
}
