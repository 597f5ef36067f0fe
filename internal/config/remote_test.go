package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCheckURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://opa.example.com/v1/data/x": "",
		"http://127.0.0.1:8181/":            "",
		"http://localhost/":                 "",
		"http://[::1]:8181/":                "",
		"http://opa.example.com/":           "plain http to another machine",
		"ftp://x/":                          "must start with https://",
		"https:///x":                        "has no host",
		"https://u:p@x/":                    "carries a user or password",
	} {
		err := CheckURL(raw, false)
		if want == "" {
			require.NoError(t, err, raw)
		} else {
			require.ErrorContains(t, err, want, raw)
		}
	}
	require.NoError(t, CheckURL("http://opa.example.com/", true))
}

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
			Endpoint{OpenAI, "https://api.openai.com/v1/chat/completions", "gpt-4o-mini", "OPENAI_API_KEY"}, ""},
		{"openai base", Remote{}, env("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1/"),
			Endpoint{OpenAI, "http://127.0.0.1:8080/v1/chat/completions", "gpt-4o-mini", "OPENAI_API_KEY"}, ""},
		{"anthropic first", Remote{}, env("OPENAI_API_KEY", "k", "ANTHROPIC_API_KEY", "a"),
			Endpoint{Anthropic, "https://api.anthropic.com/v1/messages", "claude-haiku-4-5", "ANTHROPIC_API_KEY"}, ""},
		{"anthropic base with /v1", Remote{}, env("ANTHROPIC_BASE_URL", "http://localhost:9/v1"),
			Endpoint{Anthropic, "http://localhost:9/v1/messages", "claude-haiku-4-5", "ANTHROPIC_API_KEY"}, ""},
		{"config base", Remote{BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3"}, env("ANTHROPIC_API_KEY", "a"),
			Endpoint{OpenAI, "http://127.0.0.1:11434/v1/chat/completions", "llama3", "OPENAI_API_KEY"}, ""},
		{"config key variable", Remote{API: Anthropic, APIKeyEnv: "MINE"}, env("MINE", "x"),
			Endpoint{Anthropic, "https://api.anthropic.com/v1/messages", "claude-haiku-4-5", "MINE"}, ""},
		{"api named, nothing set", Remote{API: OpenAI}, env(), Endpoint{}, "no model endpoint"},
		{"cleartext elsewhere", Remote{}, env("OPENAI_BASE_URL", "http://gpu.lan:8000/v1"), Endpoint{}, "plain http to another machine"},
		{"cleartext allowed", Remote{AllowHTTP: true}, env("OPENAI_BASE_URL", "http://gpu.lan:8000/v1"),
			Endpoint{OpenAI, "http://gpu.lan:8000/v1/chat/completions", "gpt-4o-mini", "OPENAI_API_KEY"}, ""},
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
   "wrap": "input", "result": "result", "headers": {"Authorization": "Bearer ${TOKEN}"}, "timeout": 2, "dialect": "claude-code"}},
  {"name": "judge", "event": "before_prompt", "handler": {"type": "prompt", "prompt": "Judge $ARGUMENTS", "model": "m", "api": "anthropic"}}
]}`))
	require.NoError(t, err)
	require.Len(t, f.Hooks, 2)
	h := f.Hooks[0]
	require.Equal(t, "http", h.Type)
	require.Equal(t, "result", h.Remote.Result)
	require.Equal(t, "input", h.Remote.Wrap)
	require.Equal(t, [][2]string{{"Authorization", "Bearer ${TOKEN}"}}, h.Remote.Header)
	require.Equal(t, "claude-code", h.Dialect)
	require.Equal(t, "prompt", f.Hooks[1].Type)
	require.Equal(t, Anthropic, f.Hooks[1].Remote.API)

	for doc, want := range map[string]string{
		`{"type": "http"}`: `an http handler needs "url"`,
		`{"type": "http", "url": "http://example.com/"}`:       `plain http to another machine`,
		`{"type": "http", "url": "https://x/", "cmd": "y"}`:    `unknown field "cmd" in http handler`,
		`{"type": "http", "url": "https://x/", "prompt": "y"}`: `unknown field "prompt" in http handler`,
		`{"type": "prompt"}`: `a prompt handler needs a non-empty "prompt"`,
		`{"type": "prompt", "prompt": "p", "api": "gemini"}`:              `"api" must be "openai" or "anthropic"`,
		`{"type": "prompt", "prompt": "p", "base_url": "ftp://x"}`:        `"base_url": URL "ftp://x" must start with https://`,
		`{"type": "http", "url": "https://x/", "headers": {"A": "b\nc"}}`: `must not contain a line break`,
	} {
		_, err := Parse("/p/x.json", []byte(`{"spec": "hooks/0.1", "hooks": [{"event": "before_prompt", "handler": `+doc+`}]}`))
		require.ErrorContains(t, err, want, doc)
	}
}

func TestCallRoundTrip(t *testing.T) {
	c := Call{Kind: "prompt", Hook: "h", Wrap: "input", Result: "result", URL: "http://127.0.0.1:1/v1/messages", Header: [][2]string{{"A", "b \"q\""}},
		API: Anthropic, Model: "m", Key: "k", Prompt: "p\n$ARGUMENTS"}
	got, err := DecodeCall(c.Encode())
	require.NoError(t, err)
	require.Equal(t, c, got)
	_, err = DecodeCall([]byte(`{"kind": "http", "url": "http://example.com/"}`))
	require.ErrorContains(t, err, "plain http")

	f := Call{Kind: "fetch", URL: "https://example.com/team.json"}
	got, err = DecodeCall(f.Encode())
	require.NoError(t, err)
	require.Equal(t, f, got)
	// A fetch is https only, even to this machine.
	_, err = DecodeCall([]byte(`{"kind": "fetch", "url": "http://127.0.0.1:1/team.json"}`))
	require.ErrorContains(t, err, "only https URLs are fetched")
	_, err = DecodeCall([]byte(`{"kind": "fetch", "url": "http://example.com/team.json", "allow_http": true}`))
	require.ErrorContains(t, err, "plain http")
	_, err = DecodeCall([]byte(`{"kind": "mail", "url": "https://example.com/"}`))
	require.ErrorContains(t, err, `unknown kind "mail"`)
}
