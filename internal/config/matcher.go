package config

import (
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
)

// Matcher selects tool calls.
type Matcher interface {
	Match(t *event.Tool) bool
}

// toolName is a bare-string matcher: a canonical tool name. A name outside
// the vocabulary is matched literally against the canonical and the native
// name, as the Hook Interchange spec asks.
type toolName string

func (m toolName) Match(t *event.Tool) bool {
	return t.Name == string(m) || t.Native == string(m) || slices.Contains(t.Also, string(m))
}

// pattern is an RE2 regular expression, unanchored, tried on the native and
// the canonical tool name.
type pattern struct{ re *regexp.Regexp }

func (m pattern) Match(t *event.Tool) bool {
	return m.re.MatchString(t.Native) || m.re.MatchString(t.Name)
}

type mcp struct{ server, tool string }

func (m mcp) Match(t *event.Tool) bool {
	return t.MCP != nil && t.MCP.Server == m.server && (m.tool == "" || t.MCP.Tool == m.tool)
}

type anyOf []Matcher

func (m anyOf) Match(t *event.Tool) bool {
	for _, x := range m {
		if x.Match(t) {
			return true
		}
	}
	return false
}

type allOf []Matcher

func (m allOf) Match(t *event.Tool) bool {
	for _, x := range m {
		if !x.Match(t) {
			return false
		}
	}
	return true
}

// both requires a and b (nil matches everything).
func both(a, b Matcher) Matcher {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return allOf{a, b}
}

// bindings maps an event name, in any of the vocabularies hookshim reads,
// to the canonical events it stands for.
func bindings(name string) ([]Binding, bool) {
	one := func(n event.Name) []Binding { return []Binding{{Event: n}} }
	switch name {
	case "*":
		bs := make([]Binding, 0, len(event.Names))
		for _, n := range event.Names {
			bs = append(bs, Binding{Event: n})
		}
		return bs, true
	// OpenHook 0.1 types.
	case "tool.start":
		return one(event.BeforeToolExecute), true
	case "tool.end":
		return []Binding{{Event: event.AfterToolExecute}, {Event: event.ToolUseFailure}}, true
	case "prompt.submit":
		return one(event.BeforePrompt), true
	case "session.start":
		return one(event.SessionStart), true
	case "session.end":
		return one(event.SessionEnd), true
	case "file.write":
		return []Binding{{Event: event.AfterToolExecute, Matcher: anyOf{toolName(event.ToolFileWrite), toolName(event.ToolFileEdit)}}}, true
	// Amplifier's event names.
	case "tool:pre":
		return one(event.BeforeToolExecute), true
	case "tool:post":
		return one(event.AfterToolExecute), true
	case "tool:error":
		return one(event.ToolUseFailure), true
	case "prompt:submit":
		return one(event.BeforePrompt), true
	case "prompt:complete", "orchestrator:complete":
		return one(event.AgentStop), true
	case "session:start", "session:resume":
		return one(event.SessionStart), true
	case "session:end":
		return one(event.SessionEnd), true
	case "context:pre_compact":
		return one(event.BeforeCompact), true
	case "context:post_compact":
		return one(event.AfterCompact), true
	case "approval:required":
		return one(event.PermissionRequest), true
	case "user:notification":
		return one(event.Notification), true
	// hookshim's name before it took the Hook Interchange registry's.
	case "worktree_setup", "hookshim.worktree.setup":
		return one(event.WorktreeSetup), true
	}
	// The envelope types hookshim itself emits for events OpenHook lacks.
	if rest, ok := strings.CutPrefix(name, "hookshim."); ok {
		name = strings.ReplaceAll(rest, ".", "_")
	}
	if n := event.Name(name); event.Known(n) {
		return one(n), true
	}
	return nil, false
}

// syntaxOffset finds the byte offset of the first JSON syntax error.
func syntaxOffset(data []byte) int {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 {
		// Offset counts the offending byte: point at it, not past it.
		return int(se.Offset) - 1
	}
	return len(data)
}
