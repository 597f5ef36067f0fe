package install

import (
	"fmt"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/provider"
)

// entry renders the template of f for one event.
func entry(f *provider.Format, command, event string, timeout time.Duration, toml bool) (string, error) {
	q := quoteJSON
	if toml {
		q = quoteTOML
	}
	r := strings.NewReplacer(
		"{{command}}", q(command),
		"{{timeout}}", timeoutNumber(timeout, f.TimeoutUnit),
		"{{event}}", q(event),
		"{{name}}", q("hookshim-"+event),
	)
	out := r.Replace(f.Entry)
	if strings.Contains(f.Entry, "{{timeout}}") && timeout <= 0 {
		return "", fmt.Errorf("the entry template has a timeout but the provider has none")
	}
	if !toml {
		if err := checkJSON(out); err != nil {
			return "", fmt.Errorf("entry template: %v", err)
		}
	}
	return out, nil
}

// commandKeys are the places of the command in an entry.
func commandKeys(f *provider.Format) []string {
	if len(f.CommandKeys) == 0 {
		return []string{"command"}
	}
	return f.CommandKeys
}

// eventTimeout is the timeout written for one event.
func eventTimeout(p *provider.Provider, event string) time.Duration {
	if t, ok := p.Install.EventTimeouts.Get(event); ok {
		return t
	}
	return p.Install.Timeout
}

// raised is the timeout p's entry for event at t registers above the
// provider's, to outlast the longest handler (Env.Handlers); zero when
// the provider's is long enough or the tool's is not the entry's to set:
// the tool has no per-hook timeout, or its own limit for the event
// (EventTimeouts).
func (env Env) raised(p *provider.Provider, t provider.Target, event string) time.Duration {
	if env.Handlers <= eventTimeout(p, event) || !raisable(p, t, event) {
		return 0
	}
	// Whole seconds, up: every unit a tool takes holds them.
	return (env.Handlers + time.Second - 1).Truncate(time.Second)
}

func raisable(p *provider.Provider, t provider.Target, event string) bool {
	if _, fixed := p.Install.EventTimeouts.Get(event); fixed || p.Install.Timeout <= 0 {
		return false
	}
	return t.Format != nil && strings.Contains(t.Format.Entry, "{{timeout}}")
}

// ShortTimeouts says, for the events of p at t, where the tool stops a
// hook before the longest handler's timeout (Env.Handlers) and install
// cannot register more: "30s on every event", "3s on SessionEnd,
// Interrupt"; nil when nowhere.
func (env Env) ShortTimeouts(p *provider.Provider, t provider.Target, events []string) []string {
	var limits []time.Duration
	on := map[time.Duration][]string{}
	for _, ev := range events {
		limit := eventTimeout(p, ev)
		if limit <= 0 {
			limit = p.Timeout
		}
		if limit <= 0 {
			// A tool that says nothing of its limit: what hook calls
			// assume (pipeline.DefaultToolTimeout).
			limit = 30 * time.Second
		}
		if env.Handlers > limit && !raisable(p, t, ev) {
			if on[limit] == nil {
				limits = append(limits, limit)
			}
			on[limit] = append(on[limit], ev)
		}
	}
	var out []string
	for _, l := range limits {
		if len(on[l]) == len(events) {
			out = append(out, fmt.Sprintf("%s on every event", l))
		} else {
			out = append(out, fmt.Sprintf("%s on %s", l, strings.Join(on[l], ", ")))
		}
	}
	return out
}

// Events are the native events install registers for p: every event with a
// canonical name, but for those the description skips; or exactly the
// ones asked for, which must be events of the tool.
func Events(p *provider.Provider, asked []string) ([]string, error) {
	allowed := func(native string) bool {
		if p.Install == nil || p.Install.Events == nil {
			return true
		}
		for _, e := range p.Install.Events {
			if e == native {
				return true
			}
		}
		return false
	}
	if len(asked) > 0 {
		var out []string
		seen := map[string]bool{}
		for _, a := range asked {
			s := p.Spec(a)
			if s == nil {
				for i := range p.Events {
					if strings.EqualFold(p.Events[i].Native, a) {
						s = &p.Events[i]
					}
				}
			}
			if s == nil {
				return nil, fmt.Errorf("no event %q (hookshim providers --events lists them)", a)
			}
			if !allowed(s.Native) {
				return nil, fmt.Errorf("its hook files do not take %s", s.Native)
			}
			if !seen[s.Native] {
				seen[s.Native] = true
				out = append(out, s.Native)
			}
		}
		return out, nil
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range p.Events {
		if s.Canonical == "" || seen[s.Native] || !allowed(s.Native) {
			continue
		}
		if _, skip := p.Install.Skip.Get(s.Native); skip {
			continue
		}
		seen[s.Native] = true
		out = append(out, s.Native)
	}
	return out, nil
}
