package docs

import (
	"fmt"
	"slices"
	"strings"
	"time"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
)

// DialectsMarkdown is docs/dialects.md's table of lossy pairs: for each
// dialect and each tool that may call its handlers, what the dialect's
// payload needs that the caller does not send (left out, or filled in
// from what it does send), found by speaking the dialect for every
// sample payload of the caller; and the caller's events the dialect has
// no event for, where its handlers cannot run.
func DialectsMarkdown() string {
	samples := hookshim.Samples()
	noEnv := func(string) string { return "" }
	now := time.Unix(0, 0)
	var b strings.Builder
	for _, d := range provider.Commanded() {
		fmt.Fprintf(&b, "### `%s` (%s)\n\n", d.ID, d.Name)
		b.WriteString("| caller | not sent: left out, or filled in | events with no " + d.Name + " event |\n|---|---|---|\n")
		for _, caller := range provider.All {
			if caller == d {
				continue
			}
			var gaps []string
			for _, s := range samples {
				spec := caller.Spec(s.Event)
				if s.Provider != caller || spec == nil || spec.Canonical == "" {
					continue
				}
				ev := normalize.Event(caller, spec, provider.NewPayload(s.Raw, noEnv))
				if ev.Name == "" {
					continue
				}
				c, err := dialect.Speak(d, caller, ev, now)
				if err != nil {
					continue
				}
				for _, g := range c.Gaps {
					if !slices.Contains(gaps, g) {
						gaps = append(gaps, g)
					}
				}
			}
			missing := missingEvents(d, caller)
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", caller.ID, orNone(gaps), orNone(missing))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// missingEvents are the caller's canonical events for which a handler
// written for d has no event (judged with a shell tool for tool events).
func missingEvents(d, caller *provider.Provider) []string {
	var out []string
	for _, s := range caller.Events {
		if s.Canonical == "" || slices.Contains(out, string(s.Canonical)) {
			continue
		}
		if !dialect.HasEvent(d, s.Canonical) {
			out = append(out, string(s.Canonical))
		}
	}
	return out
}
