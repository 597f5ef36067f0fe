package config

import (
	"crypto/sha256"
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseExtends(t *testing.T) {
	pin := Integrity([]byte("x"))
	f, err := Parse("/p/.openhook.json", []byte(`{"spec": "hooks/0.1",
  "extends": [
    "../policies/base.openhook.json",
    {"path": "/etc/team.json", "on_error": "deny"},
    {"url": "https://example.com/team.openhook.json", "integrity": "`+pin+`"}
  ]}`))
	require.NoError(t, err, "a file may only extend others, without hooks of its own")
	require.Empty(t, f.Hooks)
	require.Equal(t, []Extension{
		{Path: "/policies/base.openhook.json", Line: 3, Col: 5},
		{Path: "/etc/team.json", OnError: "deny", Line: 4, Col: 5},
		{URL: "https://example.com/team.openhook.json", Integrity: pin, Line: 5, Col: 5},
	}, f.Extends)
}

func TestIntegrity(t *testing.T) {
	sum := sha256.Sum256([]byte("content"))
	want := "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
	require.Equal(t, want, Integrity([]byte("content")))
	got, ok := PinSum(want)
	require.True(t, ok)
	require.Equal(t, sum, got)
	for _, bad := range []string{"", "sha256-", "sha384-" + want[7:], "sha256-" + want[7:20], "sha256-!!!", want[7:]} {
		_, ok := PinSum(bad)
		require.False(t, ok, bad)
	}
}

func TestParseExtendsErrors(t *testing.T) {
	pin := Integrity([]byte("x"))
	for _, c := range []struct{ doc, want string }{
		{`{"spec": "hooks/0.1", "hooks": [], "extends": [
  {"url": "https://example.com/t.json"}]}`, `/p/.openhook.json:2:11: https://example.com/t.json is not pinned: add "integrity": "sha256-<base64 of its SHA-256>", so that a changed file is refused rather than run (hint: hookshim extend https://example.com/t.json fetches it once, prints its pin and writes the entry)`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": ["https://example.com/t.json"]}`, `:1:48: "https://example.com/t.json" is a URL`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": [{"url": "http://example.com/t.json", "integrity": "` + pin + `"}]}`, `:1:56: "url" must be an https URL`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": [{"url": "https://u:p@example.com/t.json", "integrity": "` + pin + `"}]}`, `"url" must be an https URL without credentials`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": [{"url": "https://example.com/t.json", "integrity": "sha256-abc"}]}`, `:1:99: "integrity" must be "sha256-" and the base64`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": [{"path": "a.json", "integrity": "` + pin + `"}]}`, `"integrity" pins a URL's content`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": [{"path": "a.json", "url": "https://e/x"}]}`, `:1:48: an extends entry has "path" or "url", not both`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": [{"pth": "a.json"}]}`, `:1:49: unknown field "pth" in extends entry (did you mean "path"?) (known: path, url, integrity, on_error)`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": [{}]}`, `an extends entry needs "path" or "url"`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": [3]}`, `:1:48: an extends entry is a path or an object`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": "a.json"}`, `:1:47: "extends" must be an array`},
		{`{"spec": "hooks/0.1", "hooks": [], "extends": [""]}`, `"path" must not be empty`},
		{`{"spec": "hooks/0.1", "extends": []}`, `missing "hooks" array`},
	} {
		_, err := Parse("/p/.openhook.json", []byte(c.doc))
		require.Error(t, err, c.doc)
		require.Contains(t, err.Error(), c.want, c.doc)
	}
}

func TestParseRemote(t *testing.T) {
	_, err := ParseRemote("https://example.com/t.json", "/p", []byte(`{"spec": "hooks/0.1", "hooks": [
  {"event": "before_tool_execute", "handler": {"command": "./x.sh", "cwd": "sub"}}, {"bad": 1}]}`))
	require.Error(t, err)
	require.Equal(t, `https://example.com/t.json:2:85: hook 2 has neither "handler" nor "command"`, err.Error())
	f, err := ParseRemote("https://example.com/t.json", "/p", []byte(`{"spec": "hooks/0.1", "hooks": [
  {"event": "before_tool_execute", "handler": {"command": "./x.sh", "cwd": "sub"}}]}`))
	require.NoError(t, err)
	require.Equal(t, "/p/sub", f.Hooks[0].Dir)
	require.Equal(t, "https://example.com/t.json:2", f.Hooks[0].Pos)
}
