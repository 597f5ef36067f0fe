package pipeline

import (
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/run"
)

// A handler that exported nothing costs applyExports nothing: every call
// that runs a handler goes through it, and looking the handler's dialect
// up (or building the message of a failed lookup) for a name that is
// never written was work thrown away on each of them.
func TestApplyExportsNothingExported(t *testing.T) {
	for _, dialect := range []string{"", "claude-code", "no-such-tool"} {
		c := &call{pr: provider.Lookup("claude-code"), ev: &event.Event{Native: "PreToolUse"}}
		results := []run.Result{{Hook: &config.Hook{Name: "h", Dialect: dialect}}}
		if n := testing.AllocsPerRun(20, func() { c.applyExports(results) }); n != 0 {
			t.Errorf("dialect %q: applyExports allocated %v times for a handler that exported nothing", dialect, n)
		}
		if len(c.rec.Notes)+len(c.rec.Problems) != 0 {
			t.Errorf("dialect %q: notes %q, problems %q for a handler that exported nothing", dialect, c.rec.Notes, c.rec.Problems)
		}
	}
}
