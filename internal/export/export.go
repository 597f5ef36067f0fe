// Package export writes a config's hooks (.openhook.json, the Hook
// Interchange Format) as one tool's own hooks config: for people who want
// no runtime in between, or who hand a config to a tool hookshim does not
// run in. What the tool cannot express is degraded by the Hook Interchange
// capability defaults, one note per degradation, and Check reads the
// result back to verify that every exported hook is in it (spec §7.4).
//
// The tool's events, tool names, MCP naming and entry format are the
// provider table's and install's: the same knowledge that registers
// hookshim writes the user's own commands here.
package export

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Result is a config written for one tool.
type Result struct {
	Native []byte   // the tool's hooks config, JSON
	Notes  []string // one line per degradation: what was dropped, changed or approximated
	Hooks  []Hook   // what was written, for Check
}

// Hook is one entry written: the native event, the canonical event it
// stands for, its command and the canonical tool names its matcher
// selects (nil: every tool).
type Hook struct {
	Native, Event, Command string
	Tools                  []string
	// Loose: the matcher holds a pattern, which reads back as the tool's
	// own syntax; its tools are not compared.
	Loose bool
}

// Format is the file layout export writes for p, or an error saying why
// the tool's hooks cannot be written as one JSON file.
func Format(p *provider.Provider) (*provider.Format, error) {
	if p.Install != nil {
		for _, t := range p.Install.Targets {
			if t.Format == nil {
				continue
			}
			switch t.Format.Layout {
			case provider.LayoutGroups, provider.LayoutLists, provider.LayoutArray:
				return t.Format, nil
			}
		}
	}
	return nil, fmt.Errorf("%s keeps its hooks in no JSON file of events hookshim can write (a plugin, a script per event, TOML tables): export has nothing to write", p.Name)
}

// Encode writes the hooks of the config doc (named path in errors) in the
// format of p.
func Encode(p *provider.Provider, path string, doc []byte) (*Result, error) {
	if _, err := config.Parse(path, doc); err != nil {
		return nil, err
	}
	f, err := Format(p)
	if err != nil {
		return nil, err
	}
	root, err := install.StandardJSON(string(bytes.TrimPrefix(doc, []byte("\ufeff"))))
	if err != nil {
		return nil, err
	}
	e := &encoder{p: p, f: f, lists: map[string][]string{}}
	i := 0
	root.Get("hooks").ForEach(func(_, h gjson.Result) bool {
		i++
		e.hook(i, h)
		return true
	})
	native, err := e.document()
	if err != nil {
		return nil, err
	}
	// Laid out as people read a settings file, keys in the order written.
	e.res.Native = bytes.TrimSpace([]byte(gjson.GetBytes(native, "@pretty").Raw))
	return &e.res, nil
}

type encoder struct {
	p     *provider.Provider
	f     *provider.Format
	res   Result
	order []string            // native events in the order first written
	lists map[string][]string // native event: its entries (groups for LayoutGroups)
	label string
}

func (e *encoder) note(format string, a ...any) {
	e.res.Notes = append(e.res.Notes, e.label+": "+fmt.Sprintf(format, a...))
}

// hook writes the i-th entry of the config.
func (e *encoder) hook(i int, h gjson.Result) {
	e.label = "hook " + strconv.Itoa(i)
	if n := h.Get("name").Str; n != "" {
		e.label += " (" + n + ")"
	}
	ev := h.Get("event").Str
	switch {
	case h.Get("use").Exists():
		e.note("the built-in policy %s runs only inside hookshim: not exported", h.Get("use").Str)
		return
	case !h.Get("handler").Exists():
		e.note("an OpenHook entry (command + events) is hookshim's own format: not exported")
		return
	case !event.Known(event.Name(ev)):
		e.note("%q is not a canonical event name: not exported", ev)
		return
	}
	hd := h.Get("handler")
	if t := hd.Get("type").Str; t != "" && t != "command" {
		// llm_evaluated handlers are excluded by default; http and rule
		// handlers have no command to write either.
		e.note("a %s handler has no command %s can run: not exported", t, e.p.Name)
		return
	}
	command := hd.Get("command").Str
	degrade := func(capability, def string) string {
		if s := h.Get("degradation." + capability).Str; s != "" {
			return s
		}
		return def
	}
	for _, c := range []struct{ key, capability, what string }{
		{"platform", "platform_commands", "platform commands"},
		{"env", "custom_env", "env"},
		{"cwd", "configurable_cwd", "cwd"},
	} {
		if !hd.Get(c.key).Exists() {
			continue
		}
		if command == "" && c.key == "platform" {
			command = hd.Get("platform.linux").Str
		}
		switch degrade(c.capability, "warn") {
		case "exclude":
			e.note("%s has no place in a %s entry (%s: exclude): not exported", c.what, e.p.Name, c.capability)
			return
		case "block":
			e.note("%s has no place in a %s entry (%s: block): the hook is written to block every call", c.what, e.p.Name, c.capability)
			command = blockCommand(command, c.capability)
		default:
			e.note("%s dropped: a %s entry has none (%s: warn)", c.what, e.p.Name, c.capability)
		}
	}

	// The native events: one, or for a tool that splits an event by
	// kind of tool, those the matcher selects.
	var specs []*provider.Spec
	for k := range e.p.Events {
		if string(e.p.Events[k].Canonical) == ev {
			specs = append(specs, &e.p.Events[k])
		}
	}
	if len(specs) == 0 {
		e.note("%s has no %s event: not exported", ev, e.p.Name)
		return
	}
	items := matcherItems(h.Get("matcher"))
	tools := canonicalTools(items)
	split := len(specs) > 1 && implied(e.p, specs[0]) != nil
	if split {
		var picked []*provider.Spec
		for _, s := range specs {
			if selects(items, implied(e.p, s)) {
				picked = append(picked, s)
			}
		}
		if len(picked) == 0 {
			e.note("%s has no %s event for the tools its matcher names: not exported", ev, e.p.Name)
			return
		}
		if len(picked) > 1 {
			names := make([]string, len(picked))
			for k, s := range picked {
				names[k] = s.Native
			}
			e.note("%s splits %s by kind of tool: the hook is written for each of %s", e.p.Name, ev, strings.Join(names, ", "))
		}
		for _, it := range items {
			if it.mcp != "" || it.pattern != "" {
				e.note("%s selects by its event alone: %s is written as every MCP tool or every tool of the kind", e.p.Name, it.text)
			}
		}
		specs = picked
	} else {
		specs = specs[:1]
	}
	for _, s := range specs {
		cmd := command
		if h.Get("capabilities").Exists() && slices.ContainsFunc(h.Get("capabilities").Array(), func(c gjson.Result) bool { return c.Str == "input_rewrite" }) && !s.Can.Has(provider.CanRewrite) {
			switch degrade("input_rewrite", "block") {
			case "exclude":
				e.note("%s cannot rewrite a tool's input (input_rewrite: exclude): not exported", e.p.Name)
				continue
			case "warn":
				e.note("%s cannot rewrite a tool's input (input_rewrite: warn): the input goes through unchanged", e.p.Name)
			default:
				e.note("%s cannot rewrite a tool's input (input_rewrite: block): %s is not run and every call it would see is blocked", e.p.Name, command)
				cmd = blockCommand(command, "input_rewrite")
			}
		}
		if h.Get("blocking").Bool() && !s.Can.Has(provider.CanDeny) {
			e.note("blocking has no effect on %s: the event only observes", s.Native)
		}
		if e.write(s, h, hd, cmd, items) {
			var written []string
			if !split {
				written = tools
			}
			loose := slices.ContainsFunc(items, func(it item) bool { return it.pattern != "" || (it.mcp != "" && it.mcpTool == "") })
			e.res.Hooks = append(e.res.Hooks, Hook{Native: s.Native, Event: ev, Command: cmd, Tools: written, Loose: loose})
		}
	}
}

// write adds one entry for native event s.
func (e *encoder) write(s *provider.Spec, h, hd gjson.Result, command string, items []item) bool {
	timeout := time.Duration(hd.Get("timeout").Float() * float64(time.Second))
	hasTimeout := strings.Contains(e.f.Entry, "{{timeout}}")
	if timeout > 0 && !hasTimeout {
		e.note("timeout dropped: %s entries have none", e.p.Name)
	}
	render := func(d time.Duration) string {
		out, err := install.Entry(e.f, command, s.Native, d)
		if err != nil {
			e.note("%v: not exported", err)
			return ""
		}
		return out
	}
	entry := render(max(timeout, time.Second))
	if entry == "" {
		return false
	}
	if timeout <= 0 && hasTimeout {
		// No timeout in the config: none in the entry, so that the
		// tool's own default applies, as it did.
		other := gjson.Parse(render(2 * time.Second))
		gjson.Parse(entry).ForEach(func(k, v gjson.Result) bool {
			if other.Get(gjson.Escape(k.Str)).Raw != v.Raw {
				entry, _ = sjson.Delete(entry, gjson.Escape(k.Str))
			}
			return true
		})
	}
	// The template names hookshim's own entry: this one is the hook's.
	if gjson.Get(entry, "name").Exists() {
		name := h.Get("name").Str
		if name == "" {
			name = command
		}
		entry, _ = sjson.Set(entry, "name", name)
	}
	// provider_data for this tool is passed through as written.
	h.Get("provider_data." + gjson.Escape(e.p.ID)).ForEach(func(k, v gjson.Result) bool {
		if k.Str != "event" && k.Str != "matcher" && !gjson.Get(entry, gjson.Escape(k.Str)).Exists() {
			entry, _ = sjson.SetRaw(entry, gjson.Escape(k.Str), v.Raw)
		}
		return true
	})
	matcher := ""
	if s.Canonical.IsTool() && implied(e.p, s) == nil {
		matcher = e.nativeMatcher(items)
		if matcher != "" && e.f.Layout != provider.LayoutGroups {
			e.note("matcher %s not written: %s entries take none, the hook runs for every tool call", matcher, e.p.Name)
			matcher = ""
		}
	}
	if e.f.Layout == provider.LayoutGroups {
		g := &wire.Object{}
		g.Str("matcher", matcher)
		g.Raw("hooks", []byte("["+entry+"]"))
		entry = string(g.Bytes())
	}
	if e.f.Layout == provider.LayoutArray && e.f.EventKey != "" && !gjson.Get(entry, gjson.Escape(e.f.EventKey)).Exists() {
		entry, _ = sjson.Set(entry, gjson.Escape(e.f.EventKey), s.Native)
	}
	if _, ok := e.lists[s.Native]; !ok {
		e.order = append(e.order, s.Native)
	}
	e.lists[s.Native] = append(e.lists[s.Native], entry)
	return true
}

// nativeMatcher is the tool's matcher for items: native names joined
// with |, as Claude Code and the tools that copied it read them.
func (e *encoder) nativeMatcher(items []item) string {
	var names []string
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, it := range items {
		switch {
		case it.name != "":
			found := false
			for _, r := range e.p.Tools {
				if r.To == it.name {
					add(r.From)
					found = true
				}
			}
			if !found {
				if slices.Contains(event.ToolNames, it.name) {
					e.note("%s has no %s tool: left out of the matcher", e.p.Name, it.name)
				} else {
					add(it.name) // a native name, as written
				}
			}
		case it.mcp != "":
			mcpName := event.MCPName
			if e.p.Dialect != nil && e.p.Dialect.MCPName != nil {
				mcpName = e.p.Dialect.MCPName
			}
			if it.mcpTool == "" {
				add(strings.TrimSuffix(mcpName(it.mcp, "x"), "x") + ".*")
			} else {
				add(mcpName(it.mcp, it.mcpTool))
			}
		case it.pattern != "":
			add(it.pattern)
		}
	}
	return strings.Join(names, "|")
}

// document is the tool's config: its skeleton and the hooks.
func (e *encoder) document() ([]byte, error) {
	skel := e.f.Skeleton
	if skel == "" {
		skel = "{}"
	}
	var hooks []byte
	if e.f.Layout == provider.LayoutArray {
		var all []string
		for _, n := range e.order {
			all = append(all, e.lists[n]...)
		}
		hooks = []byte("[" + strings.Join(all, ",") + "]")
	} else {
		o := &wire.Object{}
		for _, n := range e.order {
			o.Raw(n, []byte("["+strings.Join(e.lists[n], ",")+"]"))
		}
		hooks = o.Bytes()
	}
	if e.f.TopLevel && e.f.Layout != provider.LayoutArray {
		out := []byte(skel)
		var err error
		gjson.ParseBytes(hooks).ForEach(func(k, v gjson.Result) bool {
			out, err = sjson.SetRawBytes(out, gjson.Escape(k.Str), []byte(v.Raw))
			return err == nil
		})
		return out, err
	}
	return sjson.SetRawBytes([]byte(skel), "hooks", hooks)
}

// blockCommand is the command that stands for a hook whose capability
// the tool lacks under the "block" strategy: it refuses every call it
// sees, with the reason, rather than let through what the hook guarded.
func blockCommand(command, capability string) string {
	msg := fmt.Sprintf("BLOCKED: the hook %s needs %s, which this tool does not support; it is not run, and every call it would check is refused", command, capability)
	return "echo " + strconv.Quote(msg) + " >&2; exit 2"
}

// item is one alternative of a canonical matcher.
type item struct {
	text         string // as written, for notes
	name         string
	mcp, mcpTool string
	pattern      string
}

func matcherItems(m gjson.Result) []item {
	switch {
	case !m.Exists() || m.Str == "*" || (m.Type == gjson.String && m.Str == ""):
		return nil
	case m.Type == gjson.String:
		return []item{{text: strconv.Quote(m.Str), name: m.Str}}
	case m.IsArray():
		var out []item
		for _, x := range m.Array() {
			sub := matcherItems(x)
			if sub == nil {
				return nil // a wildcard among them: every tool
			}
			out = append(out, sub...)
		}
		return out
	case m.Get("mcp").Exists():
		return []item{{text: m.Raw, mcp: m.Get("mcp.server").Str, mcpTool: m.Get("mcp.tool").Str}}
	case m.Get("pattern").Exists():
		return []item{{text: m.Raw, pattern: m.Get("pattern").Str}}
	}
	return nil
}

func canonicalTools(items []item) []string {
	var out []string
	for _, it := range items {
		switch {
		case it.name != "":
			out = append(out, it.name)
		case it.mcp != "":
			out = append(out, event.MCPName(it.mcp, it.mcpTool))
		}
	}
	return out
}

// implied is the tool a native event is about, for a tool that splits
// an event by kind of tool (Windsurf's pre_run_command: shell); nil for
// an event about any tool.
func implied(p *provider.Provider, s *provider.Spec) *event.Tool {
	if !s.Canonical.IsTool() {
		return nil
	}
	ev := normalize.Event(p, s, provider.NewPayload([]byte(`{}`), func(string) string { return "" }))
	if ev.Tool == nil || (ev.Tool.Name == "" && ev.Tool.MCP == nil) {
		return nil
	}
	return ev.Tool
}

// selects reports whether a matcher of items takes the calls of a split
// event about tool t.
func selects(items []item, t *event.Tool) bool {
	if len(items) == 0 {
		return true
	}
	for _, it := range items {
		switch {
		case t == nil:
			return true
		case it.mcp != "" || it.pattern == "^mcp__":
			if t.MCP != nil {
				return true
			}
		case it.pattern != "":
			return true
		case it.name == t.Name || slices.Contains(t.Also, it.name):
			return true
		}
	}
	return false
}

// Check reads the tool's config Encode wrote back, by the same table,
// and verifies that it holds exactly the hooks written: each native
// event with its canonical event, command and the canonical tools its
// matcher selects (the Hook Interchange verify stage, §7.4).
func Check(p *provider.Provider, res *Result) error {
	f, err := Format(p)
	if err != nil {
		return err
	}
	got, err := Decode(p, f, res.Native)
	if err != nil {
		return err
	}
	loose := map[string]bool{}
	for _, h := range res.Hooks {
		if h.Loose {
			loose[h.Native+" "+h.Command] = true
		}
	}
	key := func(h Hook) string {
		if loose[h.Native+" "+h.Command] {
			h.Tools = nil
		}
		tools := slices.Clone(h.Tools)
		tools = slices.DeleteFunc(tools, func(t string) bool {
			// A canonical tool the provider has no name for was left out
			// of the matcher (and said so).
			return slices.Contains(event.ToolNames, t) && !slices.ContainsFunc(p.Tools, func(r provider.Rename) bool { return r.To == t })
		})
		slices.Sort(tools)
		tools = slices.Compact(tools)
		return h.Native + " " + h.Event + " " + strconv.Quote(h.Command) + " " + strings.Join(tools, "|")
	}
	var want, have []string
	for _, h := range res.Hooks {
		want = append(want, key(h))
	}
	for _, h := range got {
		have = append(have, key(h))
	}
	slices.Sort(want)
	slices.Sort(have)
	if !slices.Equal(want, have) {
		return fmt.Errorf("the %s config does not read back as written:\n  written: %s\n  read:    %s", p.Name, strings.Join(want, "; "), strings.Join(have, "; "))
	}
	return nil
}

// Decode reads the hooks of a tool's config in format f: each entry's
// native event, canonical event, command and the canonical tools of its
// matcher (a native name with no canonical one stays as it is; an MCP
// tool is named mcp__server__tool).
func Decode(p *provider.Provider, f *provider.Format, native []byte) ([]Hook, error) {
	doc, err := install.StandardJSON(string(native))
	if err != nil {
		return nil, err
	}
	cmdKey := "command"
	if len(f.CommandKeys) > 0 {
		cmdKey = f.CommandKeys[0]
	}
	var out []Hook
	add := func(nativeEvent, matcher string, entry gjson.Result) {
		h := Hook{Native: nativeEvent, Command: entry.Get(cmdKey).Str}
		if s := p.Spec(nativeEvent); s != nil {
			h.Event = string(s.Canonical)
		}
		for _, n := range strings.Split(matcher, "|") {
			switch {
			case n == "" || n == "*":
			case p.SplitMCP != nil && p.SplitMCP(n, provider.NewPayload([]byte(`{}`), func(string) string { return "" })) != nil:
				m := p.SplitMCP(n, provider.NewPayload([]byte(`{}`), func(string) string { return "" }))
				h.Tools = append(h.Tools, event.MCPName(m.Server, m.Tool))
			default:
				if c, ok := p.Tools.Get(n); ok && c != "" {
					n = c
				}
				h.Tools = append(h.Tools, n)
			}
		}
		out = append(out, h)
	}
	base := doc.Get("hooks")
	if f.TopLevel {
		base = doc
	}
	if f.Layout == provider.LayoutArray {
		base.ForEach(func(_, e gjson.Result) bool {
			add(e.Get(f.EventKey).Str, e.Get("matcher").Str, e)
			return true
		})
		return out, nil
	}
	base.ForEach(func(k, list gjson.Result) bool {
		if !list.IsArray() {
			return true
		}
		list.ForEach(func(_, e gjson.Result) bool {
			if f.Layout == provider.LayoutGroups {
				e.Get("hooks").ForEach(func(_, h gjson.Result) bool {
					add(k.Str, e.Get("matcher").Str, h)
					return true
				})
				return true
			}
			add(k.Str, e.Get("matcher").Str, e)
			return true
		})
		return true
	})
	return out, nil
}
