package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/rule"
)

// ruleView shows what rule expressions see of a shell command that the
// canonical event does not spell out: the simple commands of the line,
// each with the fields a rule tests (docs/rules.md).
func ruleView(w io.Writer, ev *event.Event) {
	if ev.Tool == nil || ev.Tool.Command == "" {
		return
	}
	env := rule.NewEnv(ev)
	fmt.Fprintln(w, "\nshell commands, as rules see them (commands):")
	for i, c := range env.Commands {
		fmt.Fprintf(w, "  [%d] name %q, flags [%s], operands [%s]", i, c.Name, quoted(c.Flags), quoted(c.Operands))
		if c.Sudo {
			fmt.Fprint(w, ", sudo")
		}
		if len(c.Via) > 0 {
			fmt.Fprintf(w, ", via [%s]", quoted(c.Via))
		}
		fmt.Fprintln(w)
	}
	if env.ShellError != "" {
		fmt.Fprintf(w, "  shell_error: %s\n", env.ShellError)
	}
}

func quoted(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
