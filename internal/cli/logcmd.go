package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hookshim/hookshim/internal/journal"
	"github.com/hookshim/hookshim/internal/provider"
)

func cmdLog(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := newFlags("log")
	var f journal.Filter
	follow := fs.Bool("follow", false, "")
	asJSON := fs.Bool("json", false, "")
	limit := fs.Int("limit", 20, "")
	since := fs.String("since", "", "")
	file := fs.String("file", "", "")
	fs.StringVar(&f.Tool, "tool", "", "")
	fs.StringVar(&f.Event, "event", "", "")
	fs.StringVar(&f.Decision, "decision", "", "")
	fs.StringVar(&f.Handler, "handler", "", "")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	if fs.NArg() > 0 {
		errorf(stderr, "unexpected arguments: %s", strings.Join(fs.Args(), " "))
		hintf(stderr, "to see one call: hookshim explain ID")
		return 2
	}
	if p := provider.Lookup(f.Tool); p != nil {
		f.Tool = p.ID
	}
	if f.Decision != "" && !slices.Contains([]string{"allow", "deny", "ask", "none"}, f.Decision) {
		errorf(stderr, "--decision %q: one of allow, deny, ask, none", f.Decision)
		return 2
	}
	if *since != "" {
		t, err := journal.ParseSince(*since, time.Now())
		if err != nil {
			errorf(stderr, "--since %q: %v", *since, err)
			hintf(stderr, "a duration such as 30m, 2h or 7d, or a time such as 2026-01-02 or 2026-01-02T15:04:05Z")
			return 2
		}
		f.Since = t
	}
	if *limit < 0 {
		errorf(stderr, "--limit %d: give 0 for every call, or a positive number", *limit)
		return 2
	}
	path, err := journal.ReadPath(*file, getenv)
	if err != nil {
		errorf(stderr, "%v", err)
		hintf(stderr, "unset HOOKSHIM_LOG to write the log to its default place, or name a file with --file")
		return 1
	}
	var recs []*journal.Record
	err = journal.Scan(path, func(r *journal.Record) bool {
		if f.Keep(&r.Entry) {
			recs = append(recs, r)
		}
		return *limit == 0 || len(recs) < *limit
	})
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	slices.Reverse(recs) // oldest first, as a tail: --follow goes on below
	tab := &journal.Table{W: stdout}
	print := func(rs []*journal.Record) error {
		if *asJSON {
			for _, r := range rs {
				if _, err := stdout.Write(append(r.Line, '\n')); err != nil {
					return err
				}
			}
			return nil
		}
		return tab.Print(rs)
	}
	if len(recs) == 0 && !*follow {
		if _, err := os.Stat(path); err != nil {
			fmt.Fprintf(stderr, "hookshim: no call logged yet in %s\n", path)
			hintf(stderr, "calls are logged as tools run hookshim; 'hookshim doctor' says whether they do")
		} else {
			fmt.Fprintf(stderr, "hookshim: no call in %s matches\n", path)
		}
		return 0
	}
	if err := print(recs); err != nil {
		return 1
	}
	if !*follow {
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = journal.Follow(ctx, path, 250*time.Millisecond, func(r *journal.Record) error {
		if !f.Keep(&r.Entry) {
			return nil
		}
		return print([]*journal.Record{r})
	})
	if err != nil {
		return 1
	}
	return 0
}

func cmdExplain(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := newFlags("explain")
	file := fs.String("file", "", "")
	asJSON := fs.Bool("json", false, "")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	if fs.NArg() != 1 {
		errorf(stderr, "explain takes one call id")
		hintf(stderr, "'hookshim log' lists the recent calls with their ids")
		return 2
	}
	id := fs.Arg(0)
	path, err := journal.ReadPath(*file, getenv)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	r, err := journal.Find(path, id)
	var nf *journal.NotFoundError
	switch {
	case errors.As(err, &nf):
		errorf(stderr, "no call %s in %s (or its rotated copies)", id, path)
		hintf(stderr, "'hookshim log' lists the recent calls with their ids; older calls have been rotated out")
		return 1
	case err != nil: // an ambiguous id says itself which calls it matches
		errorf(stderr, "%v", err)
		return 1
	}
	if *asJSON {
		stdout.Write(append(r.Line, '\n'))
		return 0
	}
	fmt.Fprint(stdout, r.Entry.Explain())
	return 0
}
