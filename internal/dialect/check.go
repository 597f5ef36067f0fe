package dialect

import (
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
)

// Problem is the kind of a handler problem only the provider table can
// tell (config knows no tools): a dialect no handler can speak, or events
// the dialect has none of.
const Problem = "dialect"

// Check says what keeps a command handler written in a dialect from ever
// being given a payload: a dialect no handler can speak, or events of the
// hook the dialect has no event for. Pos is the hook's, as it is; nil
// when nothing is wrong (or the hook speaks no dialect).
func Check(h *config.Hook) *config.Problem {
	if h.Dialect == "" || h.Type != "command" {
		return nil
	}
	d, err := Lookup(h.Dialect)
	if err != nil {
		return &config.Problem{Hook: h.Name, Pos: h.Pos, Kind: Problem, Path: h.Dialect, Msg: err.Error(),
			Fix: `set "dialect" to a tool the handler was written for, or remove it to give the handler the OpenHook envelope`}
	}
	if len(h.On) >= len(event.Names) {
		return nil // every event: the dialect's own are the ones it runs on
	}
	var missing []string
	for _, b := range h.On {
		if !HasEvent(d, b.Event) && !slices.Contains(missing, string(b.Event)) {
			missing = append(missing, string(b.Event))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &config.Problem{Hook: h.Name, Pos: h.Pos, Kind: Problem, Path: h.Dialect,
		Msg: d.Name + " has no event for " + strings.Join(missing, ", ") + ": the handler, written for it, fails there",
		Fix: "listen to events " + d.Name + " has (hookshim providers --events), or drop the dialect"}
}

// HasEvent tells whether a handler written for dialect d has an event
// for the canonical event name; a tool event is judged with a shell
// tool.
func HasEvent(d *provider.Provider, name event.Name) bool {
	ev := &event.Event{Name: name}
	if name.IsTool() {
		ev.Tool = &event.Tool{Name: event.ToolShell}
	}
	return NativeEvent(d, ev) != ""
}
