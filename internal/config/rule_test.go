package config

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ruleConfig(handler string) string {
	return "{\"spec\": \"hooks/0.1\", \"hooks\": [\n" +
		"  {\"name\": \"r\", \"event\": \"before_tool_execute\",\n" +
		"   \"handler\": " + handler + "}\n]}\n"
}

func TestRuleParses(t *testing.T) {
	f, err := Parse("/p/.openhook.json", []byte(ruleConfig(
		`{"type": "rule", "if": "tool == 'shell'", "decision": "ask", "reason": "why", "context": "c", "updated_input": {"timeout": 5}, "timeout": 2}`)))
	require.NoError(t, err)
	require.Len(t, f.Hooks, 1)
	h := f.Hooks[0]
	assert.Equal(t, "rule", h.Type)
	assert.Empty(t, h.Command)
	require.NotNil(t, h.Rule)
	assert.Equal(t, "tool == 'shell'", h.Rule.If.Source)
	assert.Equal(t, "ask", h.Rule.Decision)
	assert.Equal(t, "why", h.Rule.Reason)
	assert.Equal(t, "c", h.Rule.Context)
	assert.JSONEq(t, `{"timeout": 5}`, string(h.Rule.UpdatedInput))
	assert.Equal(t, "2s", h.Timeout.String())
}

// An error inside an expression is placed where it is in the file:
// the offset of the string plus the expression's own column, counting
// the escapes as they are written.
func TestRuleErrorPosition(t *testing.T) {
	for _, c := range []struct {
		expr string // as written in the JSON file, between the quotes
		at   string // the text the error must point at, in the file
		msg  string
	}{
		{`command == 1`, `== 1`, "mismatched types string and int"},
		{`tool == \"shell\" && command == 1`, `== 1`, "mismatched types"},
		{`tool == \"shell\" &&\n command == 1`, `== 1`, "mismatched types"},
		{`prompt == \"\u00e9t\u00e9\" && comand == \"x\"`, `comand`, "unknown name comand"},
		{`prompt == \"\ud83d\ude00\" && comand == \"x\"`, `comand`, "unknown name comand"},
		{`prompt == \"😀\" && comand == \"x\"`, `comand`, "unknown name comand"},
		{`command matches \"(x\"`, `\"(x`, "missing closing )"},
		{`command matches ` + "`a\\\\s(`", "`a", "missing closing )"},
		{`glob(path, 'a/[b')`, `'a/[b`, "malformed pattern"},
	} {
		doc := ruleConfig(`{"type": "rule", "if": "` + c.expr + `", "decision": "deny"}`)
		_, err := Parse("/p/.openhook.json", []byte(doc))
		var e *Error
		require.True(t, errors.As(err, &e), "%s: %v", c.expr, err)
		off := strings.Index(doc, `"if": "`) + len(`"if": "`)
		off += strings.Index(doc[off:], c.at)
		line, col := lineColFromTop([]byte(doc), off)
		assert.Equal(t, fmt.Sprintf("%d:%d", line, col), fmt.Sprintf("%d:%d", e.Line, e.Col), c.expr)
		assert.Contains(t, e.Msg, c.msg, c.expr)
		assert.True(t, strings.HasPrefix(e.Msg, `in "if": `), e.Msg)
	}
}

func TestRuleConfigErrors(t *testing.T) {
	for _, c := range []struct{ handler, msg string }{
		{`{"type": "rule", "decision": "deny"}`, `needs "if"`},
		{`{"type": "rule", "if": true, "decision": "deny"}`, `"if" must be a string`},
		{`{"type": "rule", "if": "true"}`, `needs "decision", "context" or "updated_input"`},
		{`{"type": "rule", "if": "true", "decision": "block"}`, `"decision" must be "deny", "ask" or "allow"`},
		{`{"type": "rule", "if": "true", "updated_input": "x"}`, `"updated_input" must be an object`},
		{`{"type": "rule", "if": "true", "decision": "deny", "command": "x"}`, `unknown field "command" in rule handler`},
		{`{"type": "rule", "if": "true", "context": 1}`, `"context" must be a string`},
	} {
		_, err := Parse("/p/.openhook.json", []byte(ruleConfig(c.handler)))
		require.Error(t, err, c.handler)
		assert.Contains(t, err.Error(), c.msg, c.handler)
		assert.Contains(t, err.Error(), "/p/.openhook.json:3:", c.handler)
	}
}

// Every config in docs/rules.md parses, and its rules compile.
func TestRulesDocConfigs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/rules.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	require.NotEmpty(t, blocks)
	for _, b := range blocks {
		f, err := Parse("/home/dev/proj/.openhook.json", []byte(b[1]))
		require.NoError(t, err, b[1])
		for _, h := range f.Hooks {
			assert.Equal(t, "rule", h.Type, h.Name)
		}
	}
}
