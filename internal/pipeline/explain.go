package pipeline

import (
	"fmt"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/run"
	"github.com/hookshim/hookshim/internal/wire"
)

// Explain renders the record for people (hookshim run --explain,
// simulate).
func (t *Record) Explain() string {
	var b strings.Builder
	b.WriteString("hookshim: explain\n")
	if t.Detection != nil {
		b.WriteString(indent(t.Detection.Explain()))
	}
	if t.Native != "" {
		fmt.Fprintf(&b, "  event: %s", t.Native)
		if t.Canonical != "" {
			fmt.Fprintf(&b, " -> %s", t.Canonical)
		}
		b.WriteString("\n")
	}
	for _, c := range t.Configs {
		fmt.Fprintf(&b, "  config: %s\n", c)
	}
	if t.NoConfig != "" {
		fmt.Fprintf(&b, "  config: %s\n", t.NoConfig)
	}
	switch {
	case t.Canonical == "":
	case t.NoConfig != "":
		b.WriteString("  handlers: none, without a config; nothing was run\n")
	case len(t.Matched) == 0:
		b.WriteString("  handlers: none matched; nothing was run\n")
	default:
		fmt.Fprintf(&b, "  handlers: %s\n", strings.Join(t.Matched, ", "))
	}
	if t.ReusedFrom != "" {
		fmt.Fprintf(&b, "  reused: the answers of call %s, which this call duplicates; no handler was run again\n", t.ReusedFrom)
	} else if t.Call != "" {
		fmt.Fprintf(&b, "  call: %s\n", t.Call)
	}
	for _, r := range t.Results {
		switch {
		case r.Async:
			fmt.Fprintf(&b, "    %s: started in the background\n", r.Hook.Name)
		case t.ReusedFrom != "" && r.Err != nil:
			fmt.Fprintf(&b, "    %s: failed in that call: %v%s\n", r.Hook.Name, r.Err, hint(r.Err))
		case t.ReusedFrom != "":
			fmt.Fprintf(&b, "    %s: decision %s, in that call\n", r.Hook.Name, r.Output.Decision)
		case r.Err != nil:
			fmt.Fprintf(&b, "    %s: failed after %s: %v%s\n", r.Hook.Name, r.Duration.Round(time.Millisecond), r.Err, hint(r.Err))
		case r.Hook.Rule != nil:
			ruleTrace(&b, r)
		case r.Hook.Policy != nil: // built in: no process, microseconds
			fmt.Fprintf(&b, "    %s: %s (built in) after %s: decision %s\n", r.Hook.Name, r.Hook.Policy.Name(), r.Duration.Round(time.Microsecond), r.Output.Decision)
		default:
			fmt.Fprintf(&b, "    %s: exit %d after %s: decision %s\n", r.Hook.Name, r.Exit, r.Duration.Round(time.Millisecond), r.Output.Decision)
		}
	}
	if t.Verdict != nil {
		fmt.Fprintf(&b, "  verdict: %s", t.Verdict.Decision)
		if t.Verdict.Reason != "" {
			fmt.Fprintf(&b, " (%s)", t.Verdict.Reason)
		}
		b.WriteString("\n")
		for _, n := range t.Verdict.Notes {
			fmt.Fprintf(&b, "    note: %s\n", n)
		}
	}
	for _, n := range t.Notes {
		if n == t.NoConfig {
			continue // said above
		}
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	for _, p := range t.Problems {
		fmt.Fprintf(&b, "  problem: %s\n", p)
	}
	// The tool's words and the handlers' are in it: each line is printed
	// visibly (a line break in them starts a line of its own).
	lines := strings.SplitAfter(b.String(), "\n")
	for i, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		if lines[i] = wire.Visible(body); nl {
			lines[i] += "\n"
		}
	}
	return strings.Join(lines, "")
}

// hint is a handler failure's fix, as " (hint: …)".
func hint(err error) string {
	if h := run.Hint(err); h != "" {
		return " (hint: " + h + ")"
	}
	return ""
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = "  " + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// ruleTrace says what a rule handler found: whether its expression held,
// the expression itself, and what it answered. A rule whose expression
// holds always answers something, so an empty answer means it did not.
func ruleTrace(b *strings.Builder, r run.Result) {
	held := !r.Output.Empty()
	fmt.Fprintf(b, "    %s: rule %t after %s", r.Hook.Name, held, r.Duration.Round(time.Microsecond))
	if held {
		fmt.Fprintf(b, ": decision %s", r.Output.Decision)
		if r.Output.Context != "" {
			b.WriteString(", context")
		}
		if r.Output.UpdatedInput != nil {
			b.WriteString(", rewrite")
		}
	} else {
		b.WriteString(": no opinion")
	}
	fmt.Fprintf(b, "\n      if: %s\n", strings.ReplaceAll(r.Hook.Rule.If.Source, "\n", " "))
}
