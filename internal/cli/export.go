package cli

import (
	"fmt"
	"io"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/export"
	"github.com/hookshim/hookshim/internal/provider"
)

// cmdExport writes a config's hooks as one tool's own hooks config, on
// stdout; each degradation is a warning on stderr.
func cmdExport(args []string, _ io.Reader, stdout, stderr io.Writer, _ func(string) string) int {
	fs := newFlags("export")
	to := fs.String("to", "", "")
	check := fs.Bool("check", false, "")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	p := provider.Lookup(*to)
	if p == nil {
		ids := make([]string, len(provider.All))
		for i, q := range provider.All {
			ids[i] = q.ID
		}
		errorf(stderr, "--to names no tool: %q%s", *to, config.DidYouMean(*to, ids))
		hintf(stderr, "run 'hookshim providers' for the tool ids")
		return 2
	}
	path, err := configArg(fs.Args())
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	data, err := config.ReadFile(path)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	res, err := export.Encode(p, path, data)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	for _, n := range res.Notes {
		warningf(stderr, "%s: %s", p.ID, n)
	}
	if *check {
		if err := export.Check(p, res); err != nil {
			errorf(stderr, "%v", err)
			return 1
		}
		fmt.Fprintf(stderr, "hookshim: %s: checked: the config reads back as %d hook entries, as written\n", p.ID, len(res.Hooks))
	}
	stdout.Write(res.Native)
	fmt.Fprintln(stdout)
	return 0
}
