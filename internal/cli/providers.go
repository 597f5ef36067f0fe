package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
)

func cmdProviders(args []string, _ io.Reader, stdout, stderr io.Writer, _ func(string) string) int {
	fs := flag.NewFlagSet("providers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	events := fs.Bool("events", false, "list each provider's native events and what an answer can express")
	markdown := fs.Bool("markdown", false, "print the provider × event × decision table as Markdown (docs/providers.md)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *markdown {
		fmt.Fprint(stdout, ProvidersMarkdown())
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	if !*events {
		fmt.Fprintln(tw, "ID\tTOOL\tEVENTS")
		for _, p := range provider.All {
			fmt.Fprintf(tw, "%s\t%s\t%d\n", p.ID, p.Name, len(p.Events))
		}
		return flush(tw, stderr)
	}
	fmt.Fprintln(tw, "PROVIDER\tNATIVE EVENT\tCANONICAL\tCAN EXPRESS")
	for _, p := range provider.All {
		for _, s := range p.Events {
			canonical := string(s.Canonical)
			if canonical == "" {
				canonical = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.ID, s.Native, canonical, s.Can)
		}
	}
	return flush(tw, stderr)
}

func flush(tw *tabwriter.Writer, stderr io.Writer) int {
	if err := tw.Flush(); err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	return 0
}

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
		b.WriteString("| native event | canonical event | deny | ask | context | rewrite | continue: false |\n")
		b.WriteString("|---|---|---|---|---|---|---|\n")
		for i := range p.Events {
			s := &p.Events[i]
			canonical := "—"
			if s.Canonical != "" {
				canonical = "`" + string(s.Canonical) + "`"
			}
			fmt.Fprintf(&b, "| `%s` | %s |", s.Native, canonical)
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
