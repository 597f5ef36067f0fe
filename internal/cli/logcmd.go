package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/journal"
	"github.com/hookshim/hookshim/internal/provider"
)

// logFilter selects records for `hookshim log`.
type logFilter struct {
	tool, event, decision, handler string
	since                          time.Time
}

func (f *logFilter) keep(e *journal.Entry) bool {
	switch {
	case f.tool != "" && e.Provider != f.tool:
		return false
	case f.event != "" && !strings.EqualFold(e.Native, f.event) && !strings.EqualFold(e.Event, f.event):
		return false
	case f.decision != "" && e.Decision != f.decision:
		return false
	case f.handler != "" && !slices.Contains(e.Handlers, f.handler):
		return false
	case !f.since.IsZero() && e.Time.Before(f.since):
		return false
	}
	return true
}

// logPath is the log the reading commands read: --file, else the one
// `hookshim run` writes here. The default must be this user's alone, so
// it is checked before it is read.
func logPath(file string, getenv func(string) string) (string, error) {
	if file != "" {
		return file, nil
	}
	path, private := journal.Where("", getenv)
	switch {
	case path == "" && !private:
		return "", errors.New("the decision log is off (HOOKSHIM_LOG=" + getenv("HOOKSHIM_LOG") + ")")
	case path == "":
		return "", errors.New("no state folder: neither XDG_STATE_HOME nor HOME is set")
	}
	if private {
		if err := journal.Check(path); err != nil {
			return "", err
		}
	}
	return path, nil
}

func cmdLog(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f logFilter
	follow := fs.Bool("follow", false, "")
	asJSON := fs.Bool("json", false, "")
	limit := fs.Int("limit", 20, "")
	since := fs.String("since", "", "")
	file := fs.String("file", "", "")
	fs.StringVar(&f.tool, "tool", "", "")
	fs.StringVar(&f.event, "event", "", "")
	fs.StringVar(&f.decision, "decision", "", "")
	fs.StringVar(&f.handler, "handler", "", "")
	if err := fs.Parse(args); err != nil {
		errorf(stderr, "%v", err)
		hintf(stderr, "run 'hookshim log --help' for its usage")
		return 2
	}
	if fs.NArg() > 0 {
		errorf(stderr, "unexpected arguments: %s", strings.Join(fs.Args(), " "))
		hintf(stderr, "to see one call: hookshim explain ID")
		return 2
	}
	if p := provider.Lookup(f.tool); p != nil {
		f.tool = p.ID
	}
	if f.decision != "" && !slices.Contains([]string{"allow", "deny", "ask", "none"}, f.decision) {
		errorf(stderr, "--decision %q: one of allow, deny, ask, none", f.decision)
		return 2
	}
	if *since != "" {
		t, err := parseSince(*since, time.Now())
		if err != nil {
			errorf(stderr, "--since %q: %v", *since, err)
			hintf(stderr, "a duration such as 30m, 2h or 7d, or a time such as 2026-01-02 or 2026-01-02T15:04:05Z")
			return 2
		}
		f.since = t
	}
	if *limit < 0 {
		errorf(stderr, "--limit %d: give 0 for every call, or a positive number", *limit)
		return 2
	}
	path, err := logPath(*file, getenv)
	if err != nil {
		errorf(stderr, "%v", err)
		hintf(stderr, "unset HOOKSHIM_LOG to write the log to its default place, or name a file with --file")
		return 1
	}
	var recs []*journal.Record
	err = journal.Scan(path, func(r *journal.Record) bool {
		if f.keep(&r.Entry) {
			recs = append(recs, r)
		}
		return *limit == 0 || len(recs) < *limit
	})
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	slices.Reverse(recs) // oldest first, as a tail: --follow goes on below
	tab := &table{w: stdout}
	print := func(rs []*journal.Record) error {
		if *asJSON {
			for _, r := range rs {
				if _, err := stdout.Write(append(r.Line, '\n')); err != nil {
					return err
				}
			}
			return nil
		}
		return tab.print(rs)
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
		if !f.keep(&r.Entry) {
			return nil
		}
		return print([]*journal.Record{r})
	})
	if err != nil {
		return 1
	}
	return 0
}

// rowFormat lays out the table in fixed columns, so that the rows
// --follow prints one at a time line up with those above them. A value
// longer than its column is cut, with an ellipsis (fit): the whole of it
// is in --json and in hookshim explain.
const rowFormat = "%-19s  %-8s  %-20s  %-20s  %-14s  %-8s  %-20s  %s\n"

// fit cuts s to n characters, the last an ellipsis when s is longer.
func fit(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// table prints records one per line, in columns, under a header the
// first time.
type table struct {
	w      io.Writer
	header bool
}

func (t *table) print(rs []*journal.Record) error {
	for _, r := range rs {
		if !t.header {
			t.header = true
			if _, err := fmt.Fprintf(t.w, rowFormat, "TIME", "ID", "TOOL", "EVENT", "TOOL NAME", "DECISION", "HANDLERS", "DURATION"); err != nil {
				return err
			}
		}
		e := &r.Entry
		tool := withVersion(dash(e.Provider), e.Version)
		handlers := make([]string, 0, len(e.Handlers))
		for _, h := range e.Handlers {
			if slices.ContainsFunc(e.Runs, func(run journal.Run) bool { return run.Name == h && run.Error != "" }) {
				h += "(failed)"
			}
			handlers = append(handlers, h)
		}
		decision := e.Decision
		if len(e.Problems) > 0 {
			decision += "!" // hookshim itself had a problem: explain says which
		}
		_, err := fmt.Fprintf(t.w, rowFormat,
			e.Time.Local().Format("2006-01-02 15:04:05"), short(e.ID), fit(tool, 20), fit(dash(e.Native), 20),
			fit(dash(e.NativeTool), 14), fit(decision, 8), fit(dash(strings.Join(handlers, ",")), 20),
			strconv.FormatFloat(e.MS, 'f', 1, 64)+"ms")
		if err != nil {
			return err
		}
	}
	return nil
}

// withVersion is a tool named with its version, when the version is known.
func withVersion(tool, version string) string {
	if version == "" {
		return tool
	}
	return tool + " " + version
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// short is the part of an id `hookshim log` shows and explain accepts.
func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// parseSince reads --since: a duration back from now (30m, 2h, 7d), or a
// time (RFC 3339, or a date).
func parseSince(s string, now time.Time) (time.Time, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.Atoi(n); err == nil && d >= 0 {
			return now.Add(-time.Duration(d) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("not a duration or a time")
}

func cmdExplain(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	file := fs.String("file", "", "")
	asJSON := fs.Bool("json", false, "")
	if err := fs.Parse(args); err != nil {
		errorf(stderr, "%v", err)
		hintf(stderr, "run 'hookshim explain --help' for its usage")
		return 2
	}
	if fs.NArg() != 1 {
		errorf(stderr, "explain takes one call id")
		hintf(stderr, "'hookshim log' lists the recent calls with their ids")
		return 2
	}
	id := fs.Arg(0)
	path, err := logPath(*file, getenv)
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
	fmt.Fprint(stdout, explainEntry(&r.Entry))
	return 0
}

// explainEntry tells one logged call end to end, for people.
func explainEntry(e *journal.Entry) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("call %s\n", e.ID)
	p("  time: %s, %.1f ms\n", e.Time.Local().Format("2006-01-02 15:04:05.000 MST"), e.MS)
	tool := withVersion(dash(e.Provider), e.Version)
	p("  tool: %s\n", tool)
	if d := e.Detection; d != nil {
		switch {
		case d.Provider == "":
			p("  detection: no tool could be told\n")
		case d.Overruled:
			p("  detection: %s, from the payload, overruling --provider %s (score %d)\n", d.Provider, d.Hint, d.Score)
		case d.Hint != "":
			p("  detection: %s, from --provider, not contradicted by the payload (score %d)\n", d.Provider, d.Score)
		default:
			p("  detection: %s, from the payload (score %d, %s)\n", d.Provider, d.Score, dash(d.Confidence))
		}
		for _, s := range d.Signals {
			p("    %s\n", s)
		}
		if d.RunnerUp != "" {
			p("    runner-up: %s (score %d)\n", d.RunnerUp, d.RunnerUpAt)
		}
		if d.Doubt != "" {
			p("    doubt: %s\n", d.Doubt)
		}
	}
	if e.Native != "" {
		p("  event: %s", e.Native)
		if e.Event != "" {
			p(" -> %s", e.Event)
		} else {
			p(" (no canonical event: no handler can listen to it)")
		}
		p("\n")
	}
	if e.NativeTool != "" {
		p("  tool call: %s", e.NativeTool)
		if e.Tool != e.NativeTool {
			p(" (%s)", e.Tool)
		}
		switch {
		case e.Command != "":
			p(": %s", e.Command)
		case e.FilePath != "":
			p(": %s", e.FilePath)
		}
		p("\n")
	}
	if e.Cwd != "" {
		p("  cwd: %s\n", e.Cwd)
	}
	if e.NoConfig != "" {
		p("  config: %s\n", e.NoConfig)
	}
	for _, c := range e.Configs {
		p("  config: %s (%s)\n", c.Path, c.Trust)
	}
	if len(e.Hooks) > 0 {
		p("  hooks:\n")
	}
	for _, h := range e.Hooks {
		on := strings.Join(h.Events, ", ")
		if h.Matcher != "" {
			on += ", matcher " + h.Matcher
		}
		if h.Matched {
			p("    %s (%s; %s): matched\n", h.Name, h.Pos, on)
		} else {
			p("    %s (%s; %s): not run: %s\n", h.Name, h.Pos, on, h.Why)
		}
	}
	if e.ReusedFrom != "" {
		p("  reused: the answers of call %s, which this call duplicates; no handler ran again\n", e.ReusedFrom)
	}
	for _, r := range e.Runs {
		switch {
		case r.Async:
			p("  %s: started in the background\n", r.Name)
		case r.Error != "":
			p("  %s: failed after %.1f ms: %s\n", r.Name, r.MS, r.Error)
		default:
			p("  %s: exit %d after %.1f ms: %s", r.Name, r.Exit, r.MS, r.Decision)
			if r.Reason != "" {
				p(" (%s)", r.Reason)
			}
			if r.Context != "" {
				p(", context %q", r.Context)
			}
			if r.Rewrite {
				p(", rewrites the tool input")
			}
			p("\n")
		}
	}
	p("  merged: %s", e.Decision)
	if e.Reason != "" {
		p(" (%s)", e.Reason)
	}
	if e.Context != "" {
		p(", context %q", e.Context)
	}
	if e.Message != "" {
		p(", message %q", e.Message)
	}
	if e.Rewrite {
		p(", tool input rewritten")
	}
	if e.Stop {
		p(", stop the agent")
	}
	p("\n")
	for _, d := range e.Degraded {
		p("    degraded: %s\n", d)
	}
	p("  answer: exit %d\n", e.Exit)
	if e.Stdout != "" {
		p("    stdout: %s\n", strings.TrimRight(e.Stdout, "\n"))
	}
	if e.Stderr != "" {
		p("    stderr: %s\n", oneLine(strings.TrimRight(e.Stderr, "\n")))
	}
	for _, n := range e.Notes {
		if n != e.NoConfig {
			p("  note: %s\n", n)
		}
	}
	for _, pr := range e.Problems {
		p("  problem: %s\n", pr)
	}
	if len(e.Truncated) > 0 {
		p("  cut to keep the record small: %s\n", strings.Join(e.Truncated, ", "))
	}
	return b.String()
}
