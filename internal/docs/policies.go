package docs

import (
	"fmt"
	"strings"

	"github.com/hookshim/hookshim/internal/policy"
)

// PolicyText is one policy's documentation for the terminal.
func PolicyText(i policy.Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\nevents: %s\n\ncatches: %s\n\nmisses: %s\n\nparameters (\"with\"):\n", i.Name, Plain(i.Summary), eventList(i, ""), Plain(i.Catches), Plain(i.Misses))
	for _, p := range params(i) {
		fmt.Fprintf(&b, "  %s (%s): %s\n", p.Name, p.Type, Plain(p.Doc))
	}
	fmt.Fprintf(&b, "\nexample entry:\n  %s\n\ndenied:\n", exampleEntry(i))
	for _, ex := range i.Denied {
		fmt.Fprintf(&b, "  %s\n", exampleLine(ex))
	}
	b.WriteString("\nlet through:\n")
	for _, ex := range i.Allowed {
		fmt.Fprintf(&b, "  %s\n", exampleLine(ex))
	}
	return b.String()
}

// eventList is a policy's events, comma separated, each between quote:
// "" for the terminal, "`" for Markdown.
func eventList(i policy.Info, quote string) string {
	var s []string
	for _, e := range i.Events {
		s = append(s, quote+string(e)+quote)
	}
	return strings.Join(s, ", ")
}

// params are a policy's parameters, the common ones first.
func params(i policy.Info) []policy.Param { return policy.Params(i) }

func exampleEntry(i policy.Info) string {
	e := `{"name": "` + strings.TrimPrefix(i.Name, "hookshim/") + `", "event": "` + string(i.Events[0]) + `", "use": "` + i.Name + `"`
	for _, ex := range append(i.Denied, i.Allowed...) {
		if ex.With != "" {
			return e + `, "with": ` + ex.With + `}`
		}
	}
	return e + `}`
}

func exampleLine(ex policy.Example) string {
	what := ex.Tool
	if what == "" {
		what = "prompt"
	}
	s := what + ": " + strings.ReplaceAll(ex.Text, "\n", `\n`)
	if ex.With != "" {
		s += "   with " + ex.With
	}
	if ex.Notes != "" {
		s += "   (" + ex.Notes + ")"
	}
	return s
}

// PoliciesMarkdown is the generated part of docs/policies.md.
func PoliciesMarkdown() string {
	var b strings.Builder
	b.WriteString("| policy | event | what it does |\n|---|---|---|\n")
	for _, n := range policy.Names() {
		i, _ := policy.Lookup(n)
		fmt.Fprintf(&b, "| [`%s`](#%s) | `%s` | %s |\n", n, anchor(n), i.Events[0], i.Summary)
	}
	for _, n := range policy.Names() {
		i, _ := policy.Lookup(n)
		fmt.Fprintf(&b, "\n## %s\n\n%s.\n\nReads: %s.\n\n**Catches:** %s\n\n**Misses:** %s\n\n", n, capital(i.Summary), eventList(i, "`"), i.Catches, i.Misses)
		b.WriteString("| parameter | type | meaning |\n|---|---|---|\n")
		for _, p := range params(i) {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", p.Name, p.Type, p.Doc)
		}
		fmt.Fprintf(&b, "\n```json\n%s\n```\n\n", exampleEntry(i))
		b.WriteString("| call | answer |\n|---|---|\n")
		for _, ex := range i.Denied {
			fmt.Fprintf(&b, "| %s | deny |\n", mdExample(ex))
		}
		for _, ex := range i.Allowed {
			fmt.Fprintf(&b, "| %s | let through |\n", mdExample(ex))
		}
	}
	return b.String()
}

func anchor(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), "/", "")
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// mdExample is an example in a table cell: code, with | and newlines
// escaped.
func mdExample(ex policy.Example) string {
	what := ex.Tool
	if what == "" {
		what = "prompt"
	}
	code := strings.NewReplacer("|", `\|`, "\n", `\n`).Replace(ex.Text)
	s := what + ": `" + code + "`"
	if strings.Contains(code, "`") {
		s = what + ": `` " + code + " ``"
	}
	if ex.With != "" {
		s += ", with `" + strings.ReplaceAll(ex.With, "|", `\|`) + "`"
	}
	if ex.Notes != "" {
		s += " (" + ex.Notes + ")"
	}
	return s
}
