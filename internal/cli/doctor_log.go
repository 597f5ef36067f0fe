package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/doctor"
	"github.com/hookshim/hookshim/internal/journal"
	"github.com/hookshim/hookshim/internal/wire"
)

// printLogNotes prints what doctor learnt from the log, after the
// findings: notes, not problems.
func printLogNotes(w io.Writer, r *doctor.Report) {
	lr := r.Log
	if lr == nil {
		return
	}
	if lr.Error != "" {
		fmt.Fprintf(w, "note: decision log not read: %s\n", wire.OneLine(lr.Error))
		return
	}
	for _, rg := range r.Registrations {
		if rg.LastCall == nil || len(rg.NeverFired) == 0 {
			continue // never called at all is a problem of its own
		}
		fmt.Fprintf(w, "note: %s (%s): %d of %d registered events never fired: %s\n", rg.Provider, rg.Scope,
			len(rg.NeverFired), len(rg.Events), strings.Join(rg.NeverFired, ", "))
	}
	for _, d := range lr.Drift {
		tool := wire.Visible(journal.WithVersion(d.Provider, d.Version)) // the version is the payload's
		what := map[string]string{
			"field": "sent field %q, which this hookshim does not know: handlers see it only in the raw payload",
			"event": "sent event %q, which this hookshim does not know: it answers no opinion",
			"tool":  "used tool %q, which this hookshim has no canonical name for: matchers see its native name",
		}[d.Kind]
		fmt.Fprintf(w, "note: drift: %s "+what+" (%s, last %s)\n", tool, d.Name, plural(d.Calls, "call", "calls"), ago(time.Now(), d.Last))
	}
	for _, h := range lr.Handlers {
		if h.Slow {
			fmt.Fprintf(w, "note: slow handler %q (%s): p95 %s over %s (max %s): every call it matches waits for it\n",
				h.Name, h.Pos, msText(h.P95), plural(h.Runs, "run", "runs"), msText(h.Max))
		}
	}
}

func msText(ms float64) string {
	return (time.Duration(ms * float64(time.Millisecond))).Round(time.Millisecond).String()
}
