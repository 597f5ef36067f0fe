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
