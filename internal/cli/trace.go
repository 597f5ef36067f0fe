package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/wire"
)

// explain renders the trace for people (--explain).
func (t *trace) explain() string {
	var b strings.Builder
	b.WriteString("hookshim: explain\n")
	if t.detection != nil {
		b.WriteString(indent(t.detection.Explain()))
	}
	if t.native != "" {
		fmt.Fprintf(&b, "  event: %s", t.native)
		if t.canonical != "" {
			fmt.Fprintf(&b, " -> %s", t.canonical)
		}
		b.WriteString("\n")
	}
	for _, c := range t.configs {
		fmt.Fprintf(&b, "  config: %s\n", c)
	}
	if t.canonical != "" {
		if len(t.matched) == 0 {
			b.WriteString("  handlers: none matched; nothing was run\n")
		} else {
			fmt.Fprintf(&b, "  handlers: %s\n", strings.Join(t.matched, ", "))
		}
	}
	for _, r := range t.results {
		switch {
		case r.Async:
			fmt.Fprintf(&b, "    %s: started in the background\n", r.Hook.Name)
		case r.Err != nil:
			fmt.Fprintf(&b, "    %s: failed after %s: %v\n", r.Hook.Name, r.Duration.Round(time.Millisecond), r.Err)
		default:
			fmt.Fprintf(&b, "    %s: exit %d after %s: decision %s\n", r.Hook.Name, r.Exit, r.Duration.Round(time.Millisecond), r.Output.Decision)
		}
	}
	if t.verdict != nil {
		fmt.Fprintf(&b, "  verdict: %s", t.verdict.Decision)
		if t.verdict.Reason != "" {
			fmt.Fprintf(&b, " (%s)", t.verdict.Reason)
		}
		b.WriteString("\n")
		for _, n := range t.verdict.Notes {
			fmt.Fprintf(&b, "    note: %s\n", n)
		}
	}
	for _, n := range t.notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	for _, p := range t.problems {
		fmt.Fprintf(&b, "  problem: %s\n", p)
	}
	return b.String()
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = "  " + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// writeLog appends one JSON line to the log file, if there is one. The
// line is written with a single append, so parallel calls do not interleave.
func (c *hookCall) writeLog(ans provider.Answer) {
	path := c.flags.log
	if path == "" {
		return
	}
	t := &c.trace
	o := &wire.Object{}
	o.Str("time", c.started.UTC().Format(time.RFC3339Nano))
	o.Raw("ms", []byte(fmt.Sprintf("%.3f", float64(time.Since(c.started).Microseconds())/1000)))
	if c.pr != nil {
		o.Str("provider", c.pr.ID)
	}
	if t.detection != nil && t.detection.Overruled {
		o.Str("provider_hint", t.detection.Hint)
	}
	o.Str("native_event", t.native)
	o.Str("event", string(t.canonical))
	if c.ev != nil && c.ev.Tool != nil {
		o.Str("tool", c.ev.Tool.Name)
	}
	list := func(key string, items []string) {
		if len(items) == 0 {
			return
		}
		a := []byte{'['}
		for i, s := range items {
			if i > 0 {
				a = append(a, ',')
			}
			a = append(a, wire.Quote(s)...)
		}
		o.Raw(key, append(a, ']'))
	}
	list("configs", t.configs)
	list("handlers", t.matched)
	var failures []string
	for _, r := range t.results {
		if r.Err != nil {
			failures = append(failures, r.Hook.Name+": "+r.Err.Error())
		}
	}
	list("handler_errors", failures)
	if t.verdict != nil {
		o.Str("decision", t.verdict.Decision.String())
		if t.verdict.Reason != "" {
			o.Str("reason", t.verdict.Reason)
		}
		list("degraded", t.verdict.Notes)
	}
	list("notes", t.notes)
	list("problems", t.problems)
	o.Raw("exit", []byte(fmt.Sprint(ans.Exit)))
	o.Str("stdout", string(ans.Stdout))
	line := append(o.Bytes(), '\n')
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	_, _ = f.Write(line)
	_ = f.Close()
}
