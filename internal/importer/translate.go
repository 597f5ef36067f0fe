package importer

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/shellquote"
	"github.com/tidwall/gjson"
)

// entry is one .openhook.json hook to write, and what its translation
// lost.
type entry struct {
	json    string   // the Hook Interchange entry
	command string   // its handler command
	event   string   // its canonical event
	native  string   // the native event
	matcher string   // the native matcher
	losses  []string // one line each
}

// Keys of a native entry that the translation reads. Everything else an
// entry (or its matcher group) holds is kept under provider_data, with a
// loss line.
var (
	// Where the command is (Format.CommandKeys), for Unix and Windows.
	unixCommandKeys    = []string{"bash", "command"}
	windowsCommandKeys = []string{"powershell", "commandWindows", "command_windows"}
	// Timeouts: the unit of "timeout" is the tool's (Format.TimeoutUnit);
	// timeoutSec and timeout_secs (Jan) are seconds.
	timeoutKeys = []string{"timeout", "timeoutSec", "timeout_secs", "timeout_ms"}
	// The tools whose "prompt" hooks a model judges, answering {ok,
	// reason}, as hookshim's prompt handler does (Claude Code and its
	// look-alike Qoder, Cursor); elsewhere a prompt hook is something else.
	judgedPrompts = []string{"claude-code", "qoder", "cursor"}
	// Keys with a place in the entry or its handler.
	mappedKeys = []string{"type", "matcher", "match", "hooks", "enabled", "args", "name", "async", "statusMessage", "cwd", "working_directory", "env"}
)

// kindKeys are the keys of an http or a prompt hook that hookshim's own
// handler of that type takes, the first one required; nil for another
// kind. (A switch, not a map literal, which every process would build at
// start.)
func kindKeys(kind string) []string {
	switch kind {
	case "http":
		return []string{"url", "headers", "allowedEnvVars"}
	case "prompt":
		return []string{"prompt", "model"}
	}
	return nil
}

// pluginRootVar is the variable a plugin's hooks find its folder in:
// Claude Code's name, which Codex, Copilot CLI and Droid also set.
const pluginRootVar = "CLAUDE_PLUGIN_ROOT"

// translate turns one native entry of p into a Hook Interchange entry
// with a dialect handler. skip says why it is not imported ("" when it
// is); own reports an entry that runs hookshim.
func translate(p *provider.Provider, f *provider.Format, n native) (e entry, skip string, own bool) {
	e.native, e.matcher = n.event, n.matcher
	if n.bad != "" {
		return e, n.bad, false
	}
	where := fmt.Sprintf("%s: %s", n.file, n.event)
	loss := func(format string, a ...any) {
		e.losses = append(e.losses, where+" "+quote(e.command)+": "+fmt.Sprintf(format, a...))
	}
	kept := &object{}
	kept.str("event", n.event)
	if n.matcher != "" {
		kept.str("matcher", n.matcher)
	}

	// The command, and its Windows form.
	entryObj := n.entry
	cmdKeys := f.CommandKeys
	if len(cmdKeys) == 0 {
		cmdKeys = []string{"command"}
	}
	// A command nested in an object (Kiro's action.command): that object
	// is the handler.
	if parent, _, ok := strings.Cut(cmdKeys[0], "."); ok {
		if a := n.entry.Get(parent); a.IsObject() {
			entryObj = a
		}
	}
	unix, windows := n.script, ""
	for _, k := range unixCommandKeys {
		if v := entryObj.Get(k); unix == "" && v.Type == gjson.String {
			unix = v.Str
		}
	}
	for _, k := range windowsCommandKeys {
		if v := entryObj.Get(k); windows == "" && v.Type == gjson.String {
			windows = v.Str
		}
	}
	if args := entryObj.Get("args"); args.IsArray() && unix != "" {
		// Claude's exec form: the same program and arguments, as a
		// command line.
		words := []string{shellquote.Word(unix)}
		args.ForEach(func(_, a gjson.Result) bool {
			words = append(words, shellquote.Word(a.String()))
			return true
		})
		unix = strings.Join(words, " ")
	}
	if unix == "" {
		unix = windows
	}
	e.command = unix
	if unix == hookshimScript || install.IsHookshim(unix) || (windows != "" && install.IsHookshim(windows)) {
		return e, "", true
	}
	kind := "command"
	if t := entryObj.Get("type"); t.Exists() && f.EventKey != "type" {
		kind = t.String()
	}
	switch {
	case kind == "command" && p.Dialect == nil:
		// A handler speaks its tool's dialect; without one it could only
		// fail, on every call, and a safety hook would stop protecting.
		return e, fmt.Sprintf("hookshim does not speak %s's hook payload and answer, so a handler for it could only fail", p.Name), false
	case kind == "command":
	case kind == "prompt" && !slices.Contains(judgedPrompts, p.ID):
		return e, fmt.Sprintf("its type is %s: %s's prompt hooks are not judged by a model as hookshim's are, so there is no equivalent", quote(kind), p.Name), false
	case kind == "http" || kind == "prompt":
		// hookshim has both: the entry runs as one of its own handlers.
		e.command = entryObj.Get(kindKeys(kind)[0]).String()
		if strings.TrimSpace(e.command) == "" {
			return e, fmt.Sprintf("its type is %s and it has no %s", quote(kind), kindKeys(kind)[0]), false
		}
		unix, windows = e.command, ""
	case kind == "mcp_tool":
		return e, fmt.Sprintf("its type is %s: hookshim cannot call a tool of the client's MCP servers", quote(kind)), false
	case kind == "agent":
		return e, fmt.Sprintf("its type is %s: hookshim cannot start one of the client's own agents", quote(kind)), false
	default:
		return e, fmt.Sprintf("its type is %s: hookshim runs command, http and prompt hooks only", quote(kind)), false
	}
	if strings.TrimSpace(unix) == "" {
		return e, "it has no command", false
	}
	if en := n.entry.Get("enabled"); en.Exists() && en.Type == gjson.False {
		return e, "it is disabled", false
	}
	if n.off != "" {
		return e, n.off, false
	}

	// The event.
	spec := p.Spec(n.event)
	if spec == nil || spec.Canonical == "" {
		return e, fmt.Sprintf("hookshim has no canonical event for %s", n.event), false
	}
	e.event = string(spec.Canonical)

	// The matcher.
	var matcher string
	implied := impliedTool(p, spec)
	switch {
	case n.matcher == "" || n.matcher == "*":
		matcher = implied
	case implied != "":
		matcher = implied
		loss("its matcher %q selects by something other than the tool on %s: kept under provider_data, the hook runs for every call of the event", n.matcher, n.event)
	case !spec.Canonical.IsTool():
		loss("its matcher %q selects by something other than the tool on %s: kept under provider_data, the hook runs for every %s", n.matcher, n.event, spec.Canonical)
	default:
		m, err := toolMatcher(p, n.matcher)
		if err != nil {
			return e, err.Error(), false
		}
		matcher = m
	}

	// The handler.
	h := &object{}
	switch kind {
	case "http":
		h.str("type", "http")
		h.str("url", unix)
		if v := entryObj.Get("headers"); v.IsObject() && allStrings(v) {
			h.raw("headers", v.Raw)
		} else if v.Exists() {
			kept.raw("headers", v.Raw)
			loss("its headers are not an object of strings: kept under provider_data")
		}
		// Claude Code expands in headers only the variables its
		// allowedEnvVars lists: the list goes with the headers, or the
		// import would let them send any variable of the environment.
		if v := entryObj.Get("allowedEnvVars"); v.IsArray() && allStrings(v) {
			names := []string{}
			for _, n := range v.Array() {
				if config.IsEnvName(n.Str) {
					names = append(names, n.Str)
				} else {
					loss("its allowedEnvVars entry %s is not a variable name, which no header can use: left out", quote(n.Str))
				}
			}
			h.o.Strs("allowed_env_vars", names)
		} else if v.Exists() {
			kept.raw("allowedEnvVars", v.Raw)
			loss("its allowedEnvVars is not a list of strings: kept under provider_data, its headers expand no variable")
		}
		loss("hookshim posts the OpenHook envelope, not %s's payload, and reads the answer as a hookshim handler's: the server may need changes", p.Name)
	case "prompt":
		h.str("type", "prompt")
		h.str("prompt", unix)
		if v := entryObj.Get("model"); v.Type == gjson.String {
			h.str("model", v.Str)
		}
		loss("$ARGUMENTS is the OpenHook envelope here, not %s's payload", p.Name)
	default:
		h.str("type", "command")
		h.str("command", unix)
		if windows != "" && windows != unix {
			pl := &object{}
			pl.str("windows", windows)
			h.raw("platform", pl.String())
		}
		h.str("dialect", p.ID)
	}
	if secs, ok := timeoutOf(f, entryObj, n.entry); ok {
		h.raw("timeout", secs)
	} else {
		// The timeout the tool gave it, when it sets none: hookshim's
		// own default is shorter than most tools' (Claude Code's and
		// Codex's 600 s).
		def := handlerTimeout(p, n.event)
		applies := "hookshim's default applies"
		if def > 0 {
			h.raw("timeout", seconds(def))
			applies = p.Name + "'s default of " + seconds(def) + " s applies"
		}
		for _, k := range timeoutKeys {
			if v := n.entry.Get(k); v.Exists() {
				kept.raw(k, v.Raw)
				loss("its %s %s is not a number of %s: kept under provider_data, %s", k, v.Raw, unitName(f, k), applies)
			}
		}
	}
	for _, k := range []string{"cwd", "working_directory"} {
		if v := entryObj.Get(k); v.Type == gjson.String {
			h.str("cwd", v.Str)
			break
		}
	}
	if v := entryObj.Get("env"); kind != "command" {
		// Only a command has an environment of its own.
	} else if n.plugin != "" && (!v.Exists() || v.IsObject() && allStrings(v)) {
		// Where the plugin is, as its tool tells its hooks.
		env := &object{}
		env.str(pluginRootVar, n.plugin)
		v.ForEach(func(k, v gjson.Result) bool {
			if k.Str != pluginRootVar {
				env.raw(k.Str, v.Raw)
			}
			return true
		})
		h.raw("env", env.String())
		if strings.Contains(unix, "CLAUDE_PLUGIN_DATA") {
			loss("it names CLAUDE_PLUGIN_DATA, the plugin's data folder, which hookshim does not set")
		}
	} else if v.IsObject() && allStrings(v) {
		h.raw("env", v.Raw)
	} else if v.Exists() {
		kept.raw("env", v.Raw)
		loss("its env is not an object of strings: kept under provider_data")
	}
	if v := entryObj.Get("async"); v.IsBool() {
		h.raw("async", v.Raw)
	}
	if v := entryObj.Get("statusMessage"); v.Type == gjson.String {
		h.str("status_message", v.Str)
	}

	// What has no place: kept as it was.
	known := func(k string) bool {
		return slices.Contains(mappedKeys, k) || slices.Contains(kindKeys(kind), k) || slices.Contains(unixCommandKeys, k) ||
			slices.Contains(windowsCommandKeys, k) || slices.Contains(timeoutKeys, k) ||
			k == f.EventKey || slices.Contains(cmdKeys, k) || strings.HasPrefix(cmdKeys[0], k+".")
	}
	extra := func(obj gjson.Result, what string) {
		obj.ForEach(func(k, v gjson.Result) bool {
			if !known(k.Str) {
				kept.raw(k.Str, v.Raw)
				loss("%s%s has no equivalent: kept under provider_data", what, strconv.Quote(k.Str))
			}
			return true
		})
	}
	if n.group.Exists() {
		extra(n.group, "its group's ")
	}
	extra(n.entry, "")
	if entryObj.Raw != n.entry.Raw {
		extra(entryObj, "its handler's ")
	}

	out := &object{}
	if name := n.entry.Get("name"); name.Type == gjson.String && name.Str != "" {
		out.str("name", name.Str)
	} else {
		out.str("name", nameOf(p, n.event, unix))
	}
	out.str("event", e.event)
	if matcher != "" {
		out.raw("matcher", matcher)
	}
	// blocking as the source tool's event says: where the tool lets a
	// hook stop the action (Claude Code's exit 2), the same exit code
	// blocks under every tool; an event where it cannot (after a tool, at
	// session start or end, whatever JSON may end the session) blocks
	// nothing, and saying so would be a promise no tool keeps.
	out.raw("blocking", strconv.FormatBool(spec.Can.Has(provider.CanDeny)))
	out.raw("handler", h.String())
	pd := &object{}
	pd.raw(p.ID, kept.String())
	out.raw("provider_data", pd.String())
	e.json = out.String()
	return e, "", false
}

// impliedTool is the canonical matcher of a native event that is about one
// kind of tool (Cursor's beforeShellExecution, Windsurf's pre_run_command):
// the tool its payloads are normalized to. "" for other events.
func impliedTool(p *provider.Provider, spec *provider.Spec) string {
	if !spec.Canonical.IsTool() {
		return ""
	}
	ev := normalize.Event(p, spec, provider.NewPayload([]byte(`{}`), func(string) string { return "" }))
	switch {
	case ev.Tool == nil:
		return ""
	case ev.Tool.MCP != nil:
		return `{"pattern": "^mcp__"}`
	case ev.Tool.Name != "":
		return quote(ev.Tool.Name)
	}
	return ""
}

// plainMatcher is a matcher of names only, which Claude Code, Codex and
// the tools that copied them read as a list of exact names (| or ,
// between them) rather than a regular expression.
// Compiled on first use, as every regexp of the binary (a sync.Once, not
// sync.OnceValue, whose closure every process would allocate at start).
func plainMatcher() *regexp.Regexp {
	plainOnce.Do(func() { plain = regexp.MustCompile(`^[A-Za-z0-9_\- ,|]+$`) })
	return plain
}

var (
	plainOnce sync.Once
	plain     *regexp.Regexp
)

// toolMatcher translates a tool matcher: exact names to canonical tool
// names (a name outside the tool's table stays as it is: the config
// matches it against the native name); a regular expression to the
// canonical names whose native names it all matches, plus the expression
// itself as a pattern, which the config tries on the native
// name, unanchored as most tools do (Copilot CLI anchors: so does the
// pattern).
func toolMatcher(p *provider.Provider, m string) (string, error) {
	var names []string // JSON values
	add := func(item string) {
		if !slices.Contains(names, item) {
			names = append(names, item)
		}
	}
	addName := func(n string) {
		if c := cover(p, n); c != nil {
			for _, t := range c.Tools {
				add(quote(t))
			}
			return
		}
		if c, ok := p.Tools.Get(n); ok && c != "" {
			add(quote(c))
		} else if server, tool, ok := splitMCP(p, n); ok {
			// The Hook Interchange form of an MCP tool (§6.3), which
			// every tool's naming of it matches.
			mo, o := &object{}, &object{}
			o.str("server", server)
			o.str("tool", tool)
			mo.raw("mcp", o.String())
			add(mo.String())
		} else {
			add(quote(n))
		}
	}
	glob := p.Install != nil && p.Install.GlobMatcher
	if strings.HasPrefix(m, "@") {
		// Kiro's @server, @server/tool and @builtin.
		return "", fmt.Errorf("its matcher %q names a group of tools hookshim cannot translate: write the entry's matcher by hand", m)
	}
	if plainMatcher().MatchString(m) && !(glob && strings.ContainsAny(m, "*?[")) {
		for _, n := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if n = strings.TrimSpace(n); n != "" {
				addName(n)
			}
		}
		return list(names, ""), nil
	}
	expr := m
	switch {
	case glob:
		expr = globRegexp(m)
	case p.Install != nil && p.Install.AnchoredMatcher:
		expr = "^(?:" + m + ")$"
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return "", fmt.Errorf("its matcher %q is not a regular expression hookshim can read (RE2): write the entry's matcher by hand", m)
	}
	// A canonical name stands for every native name renamed to it: it is
	// added only when the expression matches all of them, so that the
	// matcher selects no more of the tool's own tools than it did.
	for _, t := range p.Tools {
		all := true
		for _, u := range p.Tools {
			if u.To == t.To && !re.MatchString(u.From) {
				all = false
			}
		}
		if all && t.To != "" {
			addName(t.From)
		}
	}
	if p.Install != nil {
		for _, c := range p.Install.Covers {
			if re.MatchString(c.Name) {
				addName(c.Name)
			}
		}
	}
	return list(names, `{"pattern": `+quote(expr)+`}`), nil
}

// cover is the Cover of p for a matcher name, nil for none.
func cover(p *provider.Provider, name string) *provider.Cover {
	if p.Install == nil {
		return nil
	}
	for i := range p.Install.Covers {
		if p.Install.Covers[i].Name == name {
			return &p.Install.Covers[i]
		}
	}
	return nil
}

// splitMCP is the server and tool of a native MCP tool name, by the
// tool's own rule; ok is false for another tool.
func splitMCP(p *provider.Provider, native string) (server, tool string, ok bool) {
	if p.SplitMCP == nil {
		return "", "", false
	}
	m := p.SplitMCP(native, provider.NewPayload([]byte(`{}`), func(string) string { return "" }))
	if m == nil || m.Server == "" || m.Tool == "" {
		return "", "", false
	}
	return m.Server, m.Tool, true
}

// list is a matcher of names (JSON values) and a pattern: one, or an
// array.
func list(names []string, pattern string) string {
	items := slices.Clip(names)
	if pattern != "" {
		items = append(items, pattern)
	}
	if len(items) == 1 {
		return items[0]
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// timeoutOf is the entry's timeout in seconds, as a JSON number: the
// first positive number of timeoutKeys in the objects.
func timeoutOf(f *provider.Format, objs ...gjson.Result) (string, bool) {
	for _, obj := range objs {
		for _, k := range timeoutKeys {
			v := obj.Get(k)
			if v.Type != gjson.Number || v.Float() <= 0 {
				continue
			}
			secs := v.Float() * float64(timeoutUnit(f, k)) / float64(time.Second)
			if secs == math.Trunc(secs) && secs < 1<<53 {
				return strconv.FormatInt(int64(secs), 10), true
			}
			return strconv.FormatFloat(secs, 'f', -1, 64), true
		}
	}
	return "", false
}

// handlerTimeout is the timeout p gives a hook of native event that sets
// none; zero when not known.
func handlerTimeout(p *provider.Provider, event string) time.Duration {
	if p.Install == nil {
		return 0
	}
	if d, ok := p.Install.HandlerTimeouts.Get(event); ok {
		return d
	}
	return p.Install.HandlerTimeout
}

// seconds is d in seconds, as a JSON number.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// timeoutUnit is the unit of a timeout key: "timeout" is in the tool's
// unit (Format.TimeoutUnit), timeoutSec in seconds, timeout_ms in
// milliseconds.
func timeoutUnit(f *provider.Format, key string) time.Duration {
	switch {
	case key == "timeout_ms":
		return time.Millisecond
	case key == "timeout" && f.TimeoutUnit != 0:
		return f.TimeoutUnit
	}
	return time.Second
}

func unitName(f *provider.Format, key string) string {
	if timeoutUnit(f, key) == time.Millisecond {
		return "milliseconds"
	}
	return "seconds"
}

func allStrings(v gjson.Result) bool {
	ok := true
	v.ForEach(func(_, s gjson.Result) bool {
		ok = s.Type == gjson.String
		return ok
	})
	return ok
}

// globRegexp is the regular expression of a GlobMatcher matcher: a
// full-match expression after re:, else a shell glob, both
// case-insensitive.
func globRegexp(m string) string {
	if re, ok := strings.CutPrefix(m, "re:"); ok {
		return "(?i)^(?:" + re + ")$"
	}
	var b strings.Builder
	b.WriteString("(?i)^")
	for _, r := range m {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return b.String()
}

// nameOf names an imported entry that has no name, for messages, logs
// and HOOKSHIM_SKIP: the tool, the native event and the script it runs
// (the first word that is a path, else the program), e.g.
// claude-code/PreToolUse/no-rm.sh.
func nameOf(p *provider.Provider, native, command string) string {
	words := strings.Fields(command)
	script := ""
	for _, w := range words {
		w = strings.Trim(w, `"'`)
		if strings.Contains(w, "/") {
			script = w
			break
		}
	}
	if script == "" && len(words) > 0 {
		script = strings.Trim(words[0], `"'`)
	}
	script = script[strings.LastIndex(script, "/")+1:]
	// HOOKSHIM_SKIP is a comma-separated list of names.
	return strings.ReplaceAll(p.ID+"/"+native+"/"+script, ",", "_")
}
