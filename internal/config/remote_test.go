package config

import (
	"testing"

	"github.com/hookshim/hookshim/internal/remotecall"

	"github.com/stretchr/testify/require"
)

func TestEndpoint(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	for _, tc := range []struct {
		name string
		r    Remote
		env  func(string) string
		want Endpoint
		err  string
	}{
		{"nothing", Remote{}, env(), Endpoint{}, "no model endpoint"},
		{"openai key", Remote{}, env("OPENAI_API_KEY", "k"),
			Endpoint{remotecall.OpenAI, "https://api.openai.com/v1/chat/completions", "gpt-4o-mini", "OPENAI_API_KEY"}, ""},
		{"openai base", Remote{}, env("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1/"),
			Endpoint{remotecall.OpenAI, "http://127.0.0.1:8080/v1/chat/completions", "gpt-4o-mini", "OPENAI_API_KEY"}, ""},
		{"anthropic first", Remote{}, env("OPENAI_API_KEY", "k", "ANTHROPIC_API_KEY", "a"),
			Endpoint{remotecall.Anthropic, "https://api.anthropic.com/v1/messages", "claude-haiku-4-5", "ANTHROPIC_API_KEY"}, ""},
		{"anthropic base with /v1", Remote{}, env("ANTHROPIC_BASE_URL", "http://localhost:9/v1"),
			Endpoint{remotecall.Anthropic, "http://localhost:9/v1/messages", "claude-haiku-4-5", "ANTHROPIC_API_KEY"}, ""},
		{"config base", Remote{BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3"}, env("ANTHROPIC_API_KEY", "a"),
			Endpoint{remotecall.OpenAI, "http://127.0.0.1:11434/v1/chat/completions", "llama3", "OPENAI_API_KEY"}, ""},
		{"config key variable", Remote{API: remotecall.Anthropic, APIKeyEnv: "MINE"}, env("MINE", "x"),
			Endpoint{remotecall.Anthropic, "https://api.anthropic.com/v1/messages", "claude-haiku-4-5", "MINE"}, ""},
		{"api named, nothing set", Remote{API: remotecall.OpenAI}, env(), Endpoint{}, "no model endpoint"},
		{"cleartext elsewhere", Remote{}, env("OPENAI_BASE_URL", "http://gpu.lan:8000/v1"), Endpoint{}, "plain http to another machine"},
		{"cleartext allowed", Remote{AllowHTTP: true}, env("OPENAI_BASE_URL", "http://gpu.lan:8000/v1"),
			Endpoint{remotecall.OpenAI, "http://gpu.lan:8000/v1/chat/completions", "gpt-4o-mini", "OPENAI_API_KEY"}, ""},
	} {
		got, err := tc.r.Endpoint(tc.env)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, got, tc.name)
	}
}

func TestParseRemoteHandlers(t *testing.T) {
	f, err := Parse("/p/.openhook.json", []byte(`{"spec": "hooks/0.1", "hooks": [
  {"name": "opa", "event": "before_tool_execute", "handler": {"type": "http", "url": "https://opa.example.com/v1/data/hookshim/decision",
   "wrap": "input", "result": "result", "headers": {"Authorization": "Bearer ${TOKEN}"}, "allowed_env_vars": ["TOKEN"], "timeout": 2, "dialect": "claude-code"}},
  {"name": "judge", "event": "before_prompt", "handler": {"type": "prompt", "prompt": "Judge $ARGUMENTS", "model": "m", "api": "anthropic"}}
]}`))
	require.NoError(t, err)
	require.Len(t, f.Hooks, 2)
	h := f.Hooks[0]
	require.Equal(t, "http", h.Type)
	require.Equal(t, "result", h.Remote.Result)
	require.Equal(t, "input", h.Remote.Wrap)
	require.Equal(t, [][2]string{{"Authorization", "Bearer ${TOKEN}"}}, h.Remote.Header)
	require.Equal(t, []string{"TOKEN"}, h.Remote.AllowedEnv)
	require.Equal(t, "claude-code", h.Dialect)
	require.Equal(t, "prompt", f.Hooks[1].Type)
	require.Equal(t, remotecall.Anthropic, f.Hooks[1].Remote.API)

	for doc, want := range map[string]string{
		`{"type": "http"}`: `an http handler needs "url"`,
		`{"type": "http", "url": "http://example.com/"}`:       `plain http to another machine`,
		`{"type": "http", "url": "https://x/", "cmd": "y"}`:    `unknown field "cmd" in http handler`,
		`{"type": "http", "url": "https://x/", "prompt": "y"}`: `unknown field "prompt" in http handler`,
		`{"type": "prompt"}`: `a prompt handler needs a non-empty "prompt"`,
		`{"type": "prompt", "prompt": "p", "api": "gemini"}`:                    `"api" must be "openai" or "anthropic"`,
		`{"type": "prompt", "prompt": "p", "base_url": "ftp://x"}`:              `"base_url": URL "ftp://x" must start with https://`,
		`{"type": "http", "url": "https://x/", "headers": {"A": "b\nc"}}`:       `must not contain a line break`,
		`{"type": "http", "url": "https://x/", "allowed_env_vars": "TOKEN"}`:    `"allowed_env_vars" must be a list of variable names`,
		`{"type": "http", "url": "https://x/", "allowed_env_vars": ["$TOKEN"]}`: `"allowed_env_vars": "$TOKEN" is not a variable name`,
		`{"type": "prompt", "prompt": "p", "allowed_env_vars": ["${A}", "B"]}`:  `"${A}" is not a variable name`,
		`{"type": "http", "url": "https://x/", "allowed_env_vars": [1]}`:        `allowed_env_vars`,
	} {
		_, err := Parse("/p/x.json", []byte(`{"spec": "hooks/0.1", "hooks": [{"event": "before_prompt", "handler": `+doc+`}]}`))
		require.ErrorContains(t, err, want, doc)
	}
}

// hookshim-remote is hookshim-remote.exe on Windows.
func TestProgramFile(t *testing.T) {
	require.Equal(t, "hookshim-remote", programFile("linux", remotecall.Program))
	require.Equal(t, "hookshim-remote", programFile("darwin", remotecall.Program))
	require.Equal(t, "hookshim-remote.exe", programFile("windows", remotecall.Program))
}

// Unlisted reads a header's variables as the call expands them: ${VAR}
// and $VAR, each once per header, and only those "allowed_env_vars" does
// not name.
func TestUnlisted(t *testing.T) {
	r := &Remote{
		Header: [][2]string{
			{"Authorization", "Bearer ${TOKEN}"},
			{"X-Both", "$A/${A}/$B_C-$TEAM"},
			{"X-Plain", "no variables, $ alone, ${}"},
			{"X-Empty", ""},
		},
		AllowedEnv: []string{"TEAM"},
	}
	require.Equal(t, []UnlistedEnv{{"Authorization", "TOKEN"}, {"X-Both", "A"}, {"X-Both", "B_C"}}, r.Unlisted())
	require.True(t, r.Allows("TEAM"))
	require.False(t, r.Allows("TOKEN"))
	require.Empty(t, (&Remote{Header: [][2]string{{"X", "$TEAM"}}, AllowedEnv: []string{"TEAM"}}).Unlisted())
}
