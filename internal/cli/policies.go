package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hookshim/hookshim/internal/docs"
	"github.com/hookshim/hookshim/internal/policy"
)

// cmdPolicies lists the built-in policies, or documents one.
func cmdPolicies(args []string, _ io.Reader, stdout, stderr io.Writer, _ func(string) string) int {
	fs := newFlags("policies")
	markdown := fs.Bool("markdown", false, "")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	if *markdown {
		fmt.Fprint(stdout, docs.PoliciesMarkdown())
		return 0
	}
	if fs.NArg() > 1 {
		errorf(stderr, "policies takes at most one policy name")
		return 2
	}
	if fs.NArg() == 1 {
		info, ok := policy.Lookup(fs.Arg(0))
		if !ok {
			errorf(stderr, "unknown policy %q (built in: %s)", fs.Arg(0), strings.Join(policy.Names(), ", "))
			hintf(stderr, "hookshim policies lists them")
			return 2
		}
		fmt.Fprint(stdout, docs.PolicyText(info))
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tEVENT\tWHAT IT DOES")
	for _, n := range policy.Names() {
		info, _ := policy.Lookup(n)
		fmt.Fprintf(tw, "%s\t%s\t%s\n", n, info.Events[0], docs.Plain(info.Summary))
	}
	if code := flush(tw, stderr); code != 0 {
		return code
	}
	fmt.Fprintln(stdout, "\nUse one in .openhook.json: {\"event\": \"before_tool_execute\", \"use\": \"hookshim/destructive-shell\", \"with\": {...}}")
	fmt.Fprintln(stdout, "One policy in full: hookshim policies NAME")
	return 0
}
