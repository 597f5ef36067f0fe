package remotecall

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

func TestCallRoundTrip(t *testing.T) {
	c := Call{Kind: Prompt, Hook: "h", Wrap: "input", Result: "result", URL: "http://127.0.0.1:1/v1/messages", Header: [][2]string{{"A", "b \"q\""}},
		API: Anthropic, Model: "m", Key: "k", Prompt: "p\n$ARGUMENTS", Rewrite: true}
	got, err := Decode(c.Encode())
	require.NoError(t, err)
	require.Equal(t, c, got)
	_, err = Decode([]byte(`{"kind": "http", "url": "http://example.com/"}`))
	require.ErrorContains(t, err, "plain http")

	f := Call{Kind: Fetch, URL: "https://example.com/team.json"}
	got, err = Decode(f.Encode())
	require.NoError(t, err)
	require.Equal(t, f, got)
	// A fetch is https only, even to this machine.
	_, err = Decode([]byte(`{"kind": "fetch", "url": "http://127.0.0.1:1/team.json"}`))
	require.ErrorContains(t, err, "only https URLs are fetched")
	_, err = Decode([]byte(`{"kind": "fetch", "url": "http://example.com/team.json", "allow_http": true}`))
	require.ErrorContains(t, err, "plain http")
	_, err = Decode([]byte(`{"kind": "mail", "url": "https://example.com/"}`))
	require.ErrorContains(t, err, `unknown kind "mail"`)
	_, err = Decode([]byte(`not json`))
	require.ErrorContains(t, err, Env+" is not JSON")
}
