package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Comments and trailing commas are read; the bytes kept for the trust
// check are the file's, and positions are the file's lines and columns.
func TestParseJSONC(t *testing.T) {
	src := "{\n  // the house rules\n  \"spec\": \"hooks/0.1\",\n  \"hooks\": [\n    {\"event\": \"before_prompt\", \"handler\": {\"command\": \"./rules.sh\"}}, /* one */\n  ],\n}\n"
	data := []byte(src)
	f, err := Parse("/p/.openhook.json", data)
	require.NoError(t, err)
	require.Len(t, f.Hooks, 1)
	assert.Equal(t, "./rules.sh", f.Hooks[0].Command)
	assert.Equal(t, "/p/.openhook.json:5", f.Hooks[0].Pos)
	assert.Equal(t, src, string(f.Content), "the file as read")
	assert.Equal(t, src, string(data), "the caller's bytes")

	_, err = Parse("/p/.openhook.json", []byte("{\n  // c\n  \"spec\": \"hooks/0.1\",\n  \"hooks\": [{\"event\": \"nope\", \"handler\": {\"command\": \"x\"}}]\n}\n"))
	var ce *Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 4, ce.Line)

	_, err = Parse("/p/.openhook.json", []byte("{\n  \"spec\": \"hooks/0.1\" /* unclosed\n"))
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Msg, "not valid JSON")
}
