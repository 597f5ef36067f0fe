package cli

import (
	"slices"
	"strings"

	"fmt"
	"github.com/hookshim/hookshim/internal/event"
	"io"
	"text/tabwriter"

	"github.com/hookshim/hookshim/internal/docs"
	"github.com/hookshim/hookshim/internal/provider"
)

func cmdProviders(args []string, _ io.Reader, stdout, stderr io.Writer, _ func(string) string) int {
	fs := newFlags("providers")
	events := fs.Bool("events", false, "")
	markdown := fs.Bool("markdown", false, "")
	tools := fs.Bool("tools", false, "")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	if *tools {
		return listTools(stdout, stderr)
	}
	if *markdown {
		fmt.Fprint(stdout, docs.ProvidersMarkdown())
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	if !*events {
		fmt.Fprintln(tw, "ID\tTOOL\tEVENTS\tVERIFIED")
		for _, p := range provider.All {
			verified := p.Verified
			if verified == "" {
				verified = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", p.ID, p.Name, len(p.Events), verified)
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

// listTools prints the canonical tool names a matcher takes, each with
// every tool's native names for it: what "shell" matches where.
func listTools(stdout, stderr io.Writer) int {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tPROVIDER\tNATIVE NAMES")
	for _, name := range event.ToolNames {
		for _, p := range provider.All {
			var natives []string
			for _, r := range p.Tools {
				if r.To == name && !slices.Contains(natives, r.From) {
					natives = append(natives, r.From)
				}
			}
			if len(natives) > 0 {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", name, p.ID, strings.Join(natives, ", "))
			}
		}
	}
	fmt.Fprintln(tw, "mcp\t(every tool)\t{\"mcp\": {\"server\": …, \"tool\": …}}; names outside this list match the native name as written")
	return flush(tw, stderr)
}
