package cli

import (
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/event"
)

// DialectProblem is the kind of a handler problem only the provider
// table can tell (config knows no tools): a dialect no handler can speak,
// or events the dialect has none of.
const DialectProblem = "dialect"

// checkHandlers is f.Check and the dialect checks: what keeps a handler
// from starting, or from ever being given a payload.
func checkHandlers(f *config.File, cwd string) []config.Problem {
	out := f.Check(cwd, nil)
	for _, h := range f.Hooks {
		if h.Dialect == "" || h.Type != "command" {
			continue
		}
		pos := displayPath(cwd, h.Pos)
		d, err := dialect.Lookup(h.Dialect)
		if err != nil {
			out = append(out, config.Problem{Hook: h.Name, Pos: pos, Kind: DialectProblem, Path: h.Dialect, Msg: err.Error(),
				Fix: `set "dialect" to a tool the handler was written for, or remove it to give the handler the OpenHook envelope`})
			continue
		}
		if len(h.On) >= len(event.Names) {
			continue // every event: the dialect's own are the ones it runs on
		}
		var missing []string
		for _, b := range h.On {
			if !hasEvent(d, b.Event) && !slices.Contains(missing, string(b.Event)) {
				missing = append(missing, string(b.Event))
			}
		}
		if len(missing) > 0 {
			out = append(out, config.Problem{Hook: h.Name, Pos: pos, Kind: DialectProblem, Path: h.Dialect,
				Msg: d.Name + " has no event for " + strings.Join(missing, ", ") + ": the handler, written for it, fails there",
				Fix: "listen to events " + d.Name + " has (hookshim providers --events), or drop the dialect"})
		}
	}
	return out
}
