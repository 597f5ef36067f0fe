package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/pipeline"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/hookshim/hookshim/internal/wire"
)

// explain renders the record for people (--explain).
func explain(t *pipeline.Record) string {
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
	return b.String()
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

// writeLog appends one JSON line to the log file at path, if there is
// one, and says why when it could not. The line is written with a single
// append, so parallel calls do not interleave, and only whole: a write cut
// short (a full disk) is taken back, unless another call has appended
// since, which a full disk makes unlikely.
func writeLog(path string, t *pipeline.Record, ans respond.Answer) error {
	if path == "" {
		return nil
	}
	o := &wire.Object{}
	o.Str("time", t.Started.UTC().Format(time.RFC3339Nano))
	o.Raw("ms", []byte(fmt.Sprintf("%.3f", float64(time.Since(t.Started).Microseconds())/1000)))
	if t.Provider != nil {
		o.Str("provider", t.Provider.ID)
	}
	if t.Detection != nil && t.Detection.Overruled {
		o.Str("provider_hint", t.Detection.Hint)
	}
	o.Str("native_event", t.Native)
	o.Str("event", string(t.Canonical))
	if t.Event != nil && t.Event.Tool != nil {
		o.Str("tool", t.Event.Tool.Name)
	}
	if t.Call != "" {
		o.Str("call", t.Call)
	}
	if t.ReusedFrom != "" {
		o.Str("reused_from", t.ReusedFrom)
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
	list("configs", t.Configs)
	list("handlers", t.Matched)
	var failures []string
	for _, r := range t.Results {
		if r.Err != nil {
			failures = append(failures, r.Hook.Name+": "+r.Err.Error()+hint(r.Err))
		}
	}
	list("handler_errors", failures)
	if t.Verdict != nil {
		o.Str("decision", t.Verdict.Decision.String())
		if t.Verdict.Reason != "" {
			o.Str("reason", t.Verdict.Reason)
		}
		list("degraded", t.Verdict.Notes)
	}
	list("notes", t.Notes)
	list("problems", t.Problems)
	o.Raw("exit", []byte(fmt.Sprint(ans.Exit)))
	o.Str("stdout", string(ans.Stdout))
	line := append(o.Bytes(), '\n')
	_ = os.MkdirAll(filepath.Dir(path), 0o755) // if it fails, so does the open, saying why
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	n, err := f.Write(line)
	if err != nil && n > 0 {
		err = fmt.Errorf("%v; %s", err, takeBack(f, int64(n)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// takeBack removes the last n bytes of f, a torn line this process has
// just appended, if nothing was appended after them.
func takeBack(f *os.File, n int64) string {
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return "a partial line is left in it"
	}
	if st, err := f.Stat(); err != nil || st.Size() != end || f.Truncate(end-n) != nil {
		return "a partial line is left in it"
	}
	return "the partial line was taken back"
}
