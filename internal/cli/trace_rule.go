package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/run"
)

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
