package docs

import (
	"fmt"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
)

// ProvidersMarkdown is the provider × event × decision table: for each
// native event, what becomes of each canonical answer. It is computed by
// the same code that answers the tools, so it cannot drift from it.
func ProvidersMarkdown() string {
	var b strings.Builder
	f := false
	answers := []struct {
		name string
		out  decision.Output
	}{
		{"deny", decision.Output{Decision: decision.Deny, Reason: "r"}},
		{"ask", decision.Output{Decision: decision.Ask, Reason: "r"}},
		{"context", decision.Output{Context: "c"}},
		{"rewrite", decision.Output{UpdatedInput: []byte(`{}`)}},
		{"stop", decision.Output{Continue: &f, Reason: "r"}},
	}
	for _, p := range provider.All {
		fmt.Fprintf(&b, "### %s (`%s`)\n\n", p.Name, p.ID)
		if p.Verified != "" {
			fmt.Fprintf(&b, "Verified %s.\n\n", p.Verified)
		}
		b.WriteString("| native event | canonical event | deny | ask | context | rewrite | continue: false |\n")
		b.WriteString("|---|---|---|---|---|---|---|\n")
		rows := make([]*provider.Spec, 0, len(p.Events))
		names := make([]string, 0, len(p.Events))
		for i := range p.Events {
			s := &p.Events[i]
			rows, names = append(rows, s), append(names, "`"+s.Native+"`")
			if p.Calls.List != "" && s.Canonical == event.BeforeToolExecute {
				// A payload of several calls gets one answer for all
				// (known before tool calls only).
				rows, names = append(rows, p.CallsSpec(s)), append(names, fmt.Sprintf("`%s`, several calls (`%s`)", s.Native, p.Calls.List))
			}
		}
		for i, s := range rows {
			canonical := "—"
			if s.Canonical != "" {
				canonical = "`" + string(s.Canonical) + "`"
			}
			fmt.Fprintf(&b, "| %s | %s |", names[i], canonical)
			for _, a := range answers {
				if s.Canonical == "" {
					b.WriteString(" — |")
					continue
				}
				if a.name == "rewrite" && s.Canonical != event.BeforeToolExecute && s.Canonical != event.PermissionRequest {
					b.WriteString(" n/a |")
					continue
				}
				fmt.Fprintf(&b, " %s |", outcome(s, a.name, a.out))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// outcome says in a few words what an answer becomes on an event.
func outcome(s *provider.Spec, name string, o decision.Output) string {
	o.Handler = "h"
	v := respond.Verdict(s, []run.Result{{Hook: &config.Hook{Name: "h"}, Output: o}}, "allow")
	notes := strings.Join(v.Notes, " ")
	switch {
	case notes == "":
		return "yes"
	case strings.Contains(notes, "denied instead"), strings.Contains(notes, "blocked, with the rewritten input"), strings.Contains(notes, "the action is denied instead"):
		if v.Decision == decision.Deny {
			return "→ deny"
		}
	}
	switch {
	case strings.Contains(notes, "given to the model as context"):
		return "→ context"
	case strings.Contains(notes, "shown to the user"):
		return "→ user message"
	case strings.Contains(notes, "logged only"), strings.Contains(notes, "dropped"):
		return "log only"
	case v.Decision == decision.Deny:
		return "→ deny"
	}
	return "degraded"
}
