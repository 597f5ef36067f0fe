package config

import "strings"

// Describe says what a matcher selects, for the decision log and explain:
// a tool name, /a pattern/, mcp:server/tool, joined by "or" and "and";
// "" for nil (every tool).
func Describe(m Matcher) string {
	switch m := m.(type) {
	case nil:
		return ""
	case toolName:
		return string(m)
	case pattern:
		return "/" + m.re.String() + "/"
	case mcp:
		if m.tool == "" {
			return "mcp:" + m.server
		}
		return "mcp:" + m.server + "/" + m.tool
	case anyOf:
		return join(m, " or ")
	case allOf:
		return join(m, " and ")
	}
	return "?"
}

func join(ms []Matcher, sep string) string {
	parts := make([]string, len(ms))
	for i, x := range ms {
		parts[i] = Describe(x)
		if _, ok := x.(anyOf); ok && sep == " and " {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	return strings.Join(parts, sep)
}
