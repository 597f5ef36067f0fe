package journal

import (
	"errors"
	"fmt"
	"github.com/hookshim/hookshim/internal/wire"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// What the reading commands show of the log: which log they read, which
// records, and how a record reads for people.

// Filter selects records for `hookshim log`: each field that is set must
// hold.
type Filter struct {
	Tool     string // provider id
	Event    string // native or canonical event, in any case
	Decision string // allow, deny, ask, none
	Handler  string // a handler that matched
	Since    time.Time
}

// Keep reports whether e passes the filter.
func (f *Filter) Keep(e *Entry) bool {
	switch {
	case f.Tool != "" && e.Provider != f.Tool:
		return false
	case f.Event != "" && !strings.EqualFold(e.Native, f.Event) && !strings.EqualFold(e.Event, f.Event):
		return false
	case f.Decision != "" && e.Decision != f.Decision:
		return false
	case f.Handler != "" && !slices.Contains(e.Handlers, f.Handler):
		return false
	case !f.Since.IsZero() && e.Time.Before(f.Since):
		return false
	}
	return true
}

// ReadPath is the log the reading commands read: file when it is set
// (their --file), else the one a hook call writes here. The default must
// be this user's alone, so it is checked before it is read.
func ReadPath(file string, getenv func(string) string) (string, error) {
	if file != "" {
		return file, nil
	}
	path, private := Where("", getenv)
	switch {
	case path == "" && !private:
		return "", errors.New("the decision log is off (HOOKSHIM_LOG=" + getenv("HOOKSHIM_LOG") + ")")
	case path == "":
		return "", errors.New("no state folder: neither XDG_STATE_HOME nor HOME is set")
	}
	if private {
		if err := Check(path); err != nil {
			return "", err
		}
	}
	return path, nil
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

// Table prints records one per line, in columns, under a header the
// first time.
type Table struct {
	W      io.Writer
	header bool
}

// Print prints rs, and the header before the first.
func (t *Table) Print(rs []*Record) error {
	for _, r := range rs {
		if !t.header {
			t.header = true
			if _, err := fmt.Fprintf(t.W, rowFormat, "TIME", "ID", "TOOL", "EVENT", "TOOL NAME", "DECISION", "HANDLERS", "DURATION"); err != nil {
				return err
			}
		}
		e := &r.Entry
		v := wire.Visible // the tool's and the config's words, printed visibly
		tool := v(WithVersion(dash(e.Provider), e.Version))
		handlers := make([]string, 0, len(e.Handlers))
		for _, h := range e.Handlers {
			failed := slices.ContainsFunc(e.Runs, func(run Run) bool { return run.Name == h && run.Error != "" })
			h = v(h)
			if failed {
				h += "(failed)"
			}
			handlers = append(handlers, h)
		}
		decision := e.Decision
		if len(e.Problems) > 0 {
			decision += "!" // hookshim itself had a problem: explain says which
		}
		_, err := fmt.Fprintf(t.W, rowFormat,
			e.Time.Local().Format("2006-01-02 15:04:05"), v(Short(e.ID)), fit(tool, 20), fit(v(dash(e.Native)), 20),
			fit(v(dash(e.NativeTool)), 14), fit(v(decision), 8), fit(dash(strings.Join(handlers, ",")), 20),
			strconv.FormatFloat(e.MS, 'f', 1, 64)+"ms")
		if err != nil {
			return err
		}
	}
	return nil
}

// WithVersion is a tool named with its version, when the version is known.
func WithVersion(tool, version string) string {
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

// Short is the part of an id `hookshim log` shows and explain accepts.
func Short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// ParseSince reads `hookshim log --since`: a duration back from now (30m, 2h, 7d), or a
// time (RFC 3339, or a date).
func ParseSince(s string, now time.Time) (time.Time, error) {
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

// Explain tells one logged call end to end, for people (hookshim
// explain).
func (e *Entry) Explain() string {
	var b strings.Builder
	// Every text comes from the record, much of it from the tool and the
	// handlers: each is printed visibly (wire.Visible), so that an escape
	// sequence in a command cannot hide it, rewrite the screen or set the
	// clipboard.
	p := func(format string, a ...any) {
		for i := range a {
			if s, ok := a[i].(string); ok {
				a[i] = wire.Visible(s)
			}
		}
		fmt.Fprintf(&b, format, a...)
	}
	p("call %s\n", e.ID)
	p("  time: %s, %.1f ms\n", e.Time.Local().Format("2006-01-02 15:04:05.000 MST"), e.MS)
	tool := WithVersion(dash(e.Provider), e.Version)
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
				p(`, context "%s"`, r.Context)
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
		p(`, context "%s"`, e.Context)
	}
	if e.Message != "" {
		p(`, message "%s"`, e.Message)
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
		p("    stderr: %s\n", wire.OneLine(strings.TrimRight(e.Stderr, "\n")))
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
