package doctor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
)

// Unreached is a configured hook that a tool hookshim is registered in
// never calls, or calls for fewer tools than the hook was written for.
type Unreached struct {
	Provider string `json:"provider"` // the registered tool
	Hook     string `json:"hook"`
	Pos      string `json:"pos"`
	Message  string `json:"message"`
}

// checkReach lists, for every tool with a registration, the hooks of the
// configs in force it can never fire (it has no such event, or none of its
// tools matches), and the dialect hooks whose matcher selects a kind of
// tool of the dialect's but not that tool's own tool of the same kind (an
// imported matcher that lost coverage: a Codex Edit|Write, say, which
// under Gemini CLI no longer selects the tool that creates files).
func checkReach(r *Report, found []config.Found) {
	var tools []*provider.Provider
	for _, rg := range r.Registrations {
		if p := provider.Lookup(rg.Provider); p != nil && len(rg.Events) > 0 && !slices.Contains(tools, p) {
			tools = append(tools, p)
		}
	}
	for _, p := range tools {
		for _, f := range found {
			for _, h := range f.Hooks {
				// A hook of several events ("*", or a list) that p calls
				// on one of them does fire: only a hook none of whose
				// events p has is one that never fires there.
				fires := slices.ContainsFunc(h.On, func(b config.Binding) bool { return hasEvent(p, b.Event) })
				for _, b := range h.On {
					if fires && !hasEvent(p, b.Event) {
						continue
					}
					if msg := reach(p, h, b); msg != "" {
						r.Unreached = append(r.Unreached, Unreached{Provider: p.ID, Hook: h.Name, Pos: h.Pos, Message: msg})
					}
				}
			}
		}
	}
}

// hasEvent reports whether p has an event that is e.
func hasEvent(p *provider.Provider, e event.Name) bool {
	return slices.ContainsFunc(p.Events, func(s provider.Spec) bool { return s.Canonical == e })
}

// reach says why p never calls h for binding b, or for part of what b
// selects; "" when p calls it as written.
func reach(p *provider.Provider, h *config.Hook, b config.Binding) string {
	if !hasEvent(p, b.Event) {
		return fmt.Sprintf("never fires in %s: it has no %s event", p.Name, b.Event)
	}
	if b.Matcher == nil || !b.Event.IsTool() || len(p.Tools) == 0 {
		return ""
	}
	var d *provider.Provider
	if h.Dialect != "" {
		d, _ = dialect.Lookup(h.Dialect)
	}
	// The kinds of tool p has, and which of them the matcher selects.
	kinds := map[string]bool{}
	for _, t := range p.Tools {
		if t.To != "" {
			kinds[t.To] = kinds[t.To] || matches(b.Matcher, d, t.To, t.From)
		}
	}
	any := false
	for _, sel := range kinds {
		any = any || sel
	}
	if !any && !matchesMCP(b.Matcher, p) {
		return fmt.Sprintf("never fires in %s: its matcher selects none of its tools", p.Name)
	}
	if d == nil || d == p {
		return ""
	}
	// The kinds the hook was written for: those of its dialect's tools
	// the matcher selects, with all that each of them covers there.
	var lost []string
	for _, t := range d.Tools {
		if t.To == "" || !matches(b.Matcher, d, t.To, t.From) {
			continue
		}
		for _, k := range covered(d, t.From, t.To) {
			if sel, has := kinds[k]; has && !sel && !slices.Contains(lost, k) {
				lost = append(lost, k)
			}
		}
	}
	if len(lost) == 0 {
		return ""
	}
	slices.Sort(lost)
	return fmt.Sprintf("fires for fewer tools in %s than in %s: its matcher selects %s in %s, but not %s's %s",
		p.Name, d.Name, strings.Join(lost, ", "), d.Name, p.Name, nativesOf(p, lost))
}

// matches reports whether m selects the tool native (canonical name) as
// a call of hookshim would: by its own names, or, for a dialect handler,
// by the dialect's name for it.
func matches(m config.Matcher, d *provider.Provider, canonical, native string) bool {
	t := &event.Tool{Name: canonical, Native: native}
	if m.Match(t) {
		return true
	}
	if d == nil {
		return false
	}
	if name, ok := dialect.ToolName(d, t); ok && name != native {
		return m.Match(&event.Tool{Name: canonical, Native: name})
	}
	return false
}

// covered is what a tool of d selects: its canonical name, or all of its
// Install.Covers.
func covered(d *provider.Provider, native, canonical string) []string {
	if d.Install != nil {
		for _, c := range d.Install.Covers {
			if c.Name == native {
				return c.Tools
			}
		}
	}
	return []string{canonical}
}

// nativesOf names p's tools of the canonical kinds.
func nativesOf(p *provider.Provider, kinds []string) string {
	var names []string
	for _, t := range p.Tools {
		if slices.Contains(kinds, t.To) && !slices.Contains(names, t.From) {
			names = append(names, t.From)
		}
	}
	return strings.Join(names, ", ")
}

// matchesMCP reports whether m selects an MCP tool of p: MCP tools are
// not in the tool table, and a matcher may be written for them alone.
func matchesMCP(m config.Matcher, p *provider.Provider) bool {
	const server, tool = "server", "tool"
	native := event.MCPName(server, tool)
	if p.Dialect != nil && p.Dialect.MCPName != nil {
		native = p.Dialect.MCPName(server, tool)
	}
	return m.Match(&event.Tool{Name: event.MCPName(server, tool), Native: native, MCP: &event.MCP{Server: server, Tool: tool}})
}
