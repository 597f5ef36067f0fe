package pipeline

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Without hookshim-remote an http handler fails with the fix, and the call
// goes on as its failure policy says.
func TestRemoteWithoutHelper(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	getenv, dir := env(t, `{"spec": "hooks/0.1", "hooks": [
  {"name": "opa", "event": "before_tool_execute", "handler": {"type": "http", "url": "http://127.0.0.1:1/"}}
]}`)
	ans, rec := Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code"})
	require.Equal(t, 0, ans.Exit)
	require.Empty(t, ans.Stdout)
	require.Equal(t, []string{`handler "opa" could not start: hookshim-remote, which sends http handlers, is neither next to hookshim nor in PATH` +
		` (hint: install it next to hookshim: every release archive, install.sh and the npm package carry both; in a checkout, go install ./cmd/... installs both)`}, rec.Warnings())
}

// A prompt handler without a model, by its llm_evaluated degradation:
// left out with a note, a warning on every call, or a denial.
func TestPromptWithoutModel(t *testing.T) {
	for strategy, want := range map[string]string{"": "note", "exclude": "note", "warn": "warning", "block": "deny"} {
		deg := ""
		if strategy != "" {
			deg = `, "degradation": {"llm_evaluated": "` + strategy + `"}`
		}
		getenv, dir := env(t, `{"spec": "hooks/0.1", "hooks": [
  {"name": "judge", "event": "before_tool_execute"`+deg+`, "handler": {"type": "prompt", "prompt": "judge $ARGUMENTS"}}
]}`)
		ans, rec := Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code"})
		require.Equal(t, 0, ans.Exit, strategy)
		switch want {
		case "note":
			require.Empty(t, ans.Stdout, strategy)
			require.Empty(t, rec.Warnings(), strategy)
			require.Contains(t, rec.Notes, `prompt handler "judge" has no model endpoint (set ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL, or "base_url"; degradation llm_evaluated: exclude): left out`)
		case "warning":
			require.Empty(t, ans.Stdout, strategy)
			require.Len(t, rec.Warnings(), 1, strategy)
			require.Contains(t, rec.Warnings()[0], "has no model endpoint")
		case "deny":
			require.Contains(t, string(ans.Stdout), `"permissionDecision":"deny"`, strategy)
			require.Contains(t, string(ans.Stdout), `has no model endpoint`, strategy)
		}
	}
}

// A blocking http or prompt handler that cannot be sent (no
// hookshim-remote) is never waved through as no opinion: it asks the user,
// with the fix, on every call, and denies under on_error: deny.
func TestBlockingRemoteWithoutHelper(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, c := range []struct{ extra, want string }{
		{`"blocking": true`, `"permissionDecision":"ask"`},
		{`"blocking": true, "on_error": "deny"`, `"permissionDecision":"deny"`},
		{`"on_error": "deny"`, `"permissionDecision":"deny"`},
	} {
		for _, handler := range []string{`{"type": "http", "url": "http://127.0.0.1:1/"}`, `{"type": "prompt", "prompt": "p", "base_url": "http://127.0.0.1:1/v1"}`} {
			getenv, dir := env(t, `{"spec": "hooks/0.1", "hooks": [
  {"name": "opa", "event": "before_tool_execute", `+c.extra+`, "handler": `+handler+`}
]}`)
			for _, command := range []string{"ls", "ls", "pwd"} { // every call, a duplicate too
				ans, rec := Call(preToolUse(dir, command), nil, getenv, Options{Provider: "claude-code"})
				require.Equal(t, 0, ans.Exit)
				require.Contains(t, string(ans.Stdout), c.want, c.extra)
				require.Contains(t, string(ans.Stdout), "hookshim-remote", c.extra)
				if rec.ReusedFrom == "" {
					require.NotEmpty(t, rec.Warnings(), c.extra)
				}
			}
		}
	}
}
