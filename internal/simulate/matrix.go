package simulate

import (
	"fmt"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/wire"
)

// ExampleCommand is the shell command every tool is shown trying to run.
const ExampleCommand = "rm -rf /"

// Row is one simulated call of a table: the sample it was made from,
// and what came of it.
type Row struct {
	Sample *hookshim.Sample
	Result Result
}

// Matrix shows the product in one screen: for every tool, the same
// destructive shell command (ExampleCommand) and a prompt, each in the
// tool's own payload, run against policy. A tool with no sample for one
// of them, or whose sample cannot take the command, is an error; the
// other calls are made all the same.
func (e Env) Matrix(policy []config.Found) ([]Row, []error) {
	input := []byte(`{"command":` + string(wire.Quote(ExampleCommand)) + `}`)
	var rows []Row
	var errs []error
	samples := hookshim.Samples()
	for _, pr := range provider.All {
		for _, kind := range []event.Name{event.BeforeToolExecute, event.BeforePrompt} {
			if !hasCanonical(pr, kind) {
				// Antigravity and Trae have no prompt event at all.
				continue
			}
			s := representative(samples, pr, kind, e.Getenv)
			if s == nil {
				errs = append(errs, fmt.Errorf("%s has no sample payload for %s", pr.ID, kind))
				continue
			}
			raw := s.Raw
			if kind == event.BeforeToolExecute {
				var err error
				if raw, err = WithToolInput(pr, raw, input); err != nil {
					errs = append(errs, fmt.Errorf("%s %s: %v", pr.ID, s.Name, err))
					continue
				}
			}
			rows = append(rows, Row{Sample: s, Result: e.Call(pr.ID, s.Event, "", policy, raw)})
		}
	}
	return rows, errs
}

// All runs every embedded sample payload against policy (simulate --all).
func (e Env) All(policy []config.Found) []Row {
	var rows []Row
	for _, s := range hookshim.Samples() {
		rows = append(rows, Row{Sample: &s, Result: e.Call(s.Provider.ID, s.Event, "", policy, s.Raw)})
	}
	return rows
}

// hasCanonical reports whether one of pr's native events is kind.
func hasCanonical(pr *provider.Provider, kind event.Name) bool {
	for i := range pr.Events {
		if pr.Events[i].Canonical == kind {
			return true
		}
	}
	return false
}

// representative picks the sample a tool is shown with for a canonical
// event, by what the sample is, not by its name: for a tool call, a sample
// about the shell, from the tool's event for shell commands where it has
// one (Cursor's beforeShellExecution rather than its preToolUse); an event
// that can express what the example policy answers (a denial, context)
// before one that cannot (then the table shows the degradation); the
// tool's own order of events; the plain <Event>.json before its variants.
func representative(samples []hookshim.Sample, pr *provider.Provider, kind event.Name, getenv func(string) string) *hookshim.Sample {
	want := provider.CanDeny
	if kind == event.BeforePrompt {
		want = provider.CanContext
	}
	type candidate struct {
		s     *hookshim.Sample
		spec  *provider.Spec
		shell bool
	}
	var cands []candidate
	notShellOnly := map[string]bool{} // native events with samples about other tools
	for i := range samples {
		s := &samples[i]
		spec := pr.Spec(s.Event)
		if s.Provider != pr || spec == nil || spec.Canonical != kind {
			continue
		}
		c := candidate{s: s, spec: spec, shell: true}
		if kind == event.BeforeToolExecute {
			ev := normalize.Event(pr, spec, provider.NewPayload(s.Raw, getenv))
			c.shell = ev.Tool != nil && ev.Tool.Name == event.ToolShell
			if !c.shell {
				notShellOnly[s.Event] = true
			}
		}
		cands = append(cands, c)
	}
	var best *hookshim.Sample
	bestRank := 0
	for _, c := range cands {
		if !c.shell {
			continue
		}
		rank := 0 // lower wins
		if !c.spec.Can.Has(want) {
			rank += 1 << 20
		}
		if notShellOnly[c.s.Event] {
			rank += 1 << 19
		}
		for j := range pr.Events {
			if pr.Events[j].Native == c.s.Event {
				rank += j * 2
			}
		}
		if c.s.Name != c.s.Event+".json" {
			rank++
		}
		if best == nil || rank < bestRank {
			best, bestRank = c.s, rank
		}
	}
	return best
}
