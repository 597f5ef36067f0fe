// Package config reads .openhook.json: OpenHook 0.1 discovery entries and
// Hook Interchange Format entries, mixed in one file.
//
// Parsing walks the document with gjson so that every error names the file,
// line and column of the offending value.
package config

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/policy"
	"github.com/tidwall/gjson"
)

// DefaultTimeout is a handler's timeout when the config gives none
// (the Hook Interchange recommendation).
const DefaultTimeout = 30 * time.Second

// File is one parsed config file.
type File struct {
	Path     string
	Dir      string // the project root for this file's relative paths
	Hooks    []*Hook
	OnError  string   // "allow" (default) or "deny": what hookshim's own and handlers' failures answer
	Warnings []string // non-fatal problems, with positions
	// Unsafe are the unknown fields that look like a misspelt field
	// deciding whether a hook may fail open ("on_eror": "deny"): ignored
	// at run time like any unknown field, but never allowed (see Risky).
	Unsafe  []string
	Redact  []string // fields of the decision log to keep out of it ("tool_input.password")
	Content []byte   // the file's bytes as read, for the trust check's hash

	Extends  []Extension // the "extends" entries, as written (see extends.go)
	Extended []*File     // the configs they pulled in, once resolved (package extend)
}

// Hook is one handler bound to one or more canonical events.
type Hook struct {
	Name          string
	Pos           string // file:line, for messages
	On            []Binding
	Type          string // the handler type: "command", or one run without a process of its own
	Dialect       string // the tool whose payload and answer a command handler speaks; "" for the OpenHook envelope
	Command       string // for this platform
	Timeout       time.Duration
	TimeoutAction string // "warn" or "block"
	Env           []string
	Dir           string // working directory (absolute)
	Async         bool
	Blocking      bool
	OnError       string // "" (inherit), "allow" or "deny"
	Degradation   map[string]string
	Remote        *Remote // what an http or prompt handler sends, and where (remote.go)

	// Policy is the built-in policy of a "use" entry (Type "use"),
	// compiled with its parameters (use.go).
	Policy *policy.Policy

	// Rule is the expression and answer of a "rule" handler (Type
	// "rule"), compiled when the config is read (rule.go).
	Rule *Rule
}

// Binding is one event a hook listens to, with its tool matcher.
type Binding struct {
	Event   event.Name
	Matcher Matcher // nil matches every tool
}

// Matches reports whether the hook runs for ev.
func (h *Hook) Matches(ev *event.Event) bool {
	for _, b := range h.On {
		if b.Event != ev.Name {
			continue
		}
		if b.Matcher == nil || !ev.Name.IsTool() {
			return true
		}
		if ev.Tool != nil && b.Matcher.Match(ev.Tool) {
			return true
		}
	}
	return false
}

// Listens reports whether the hook listens to the canonical event at all.
func (h *Hook) Listens(n event.Name) bool {
	for _, b := range h.On {
		if b.Event == n {
			return true
		}
	}
	return false
}

// Error is a config error at a position.
type Error struct {
	Path      string
	Line, Col int
	Msg       string

	// Empty says the one problem is an empty "hooks" array: a command
	// that adds hooks (import) may start from such a file.
	Empty bool
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
}

// Load reads and parses one config file.
func Load(path string) (*File, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseAt(path, data)
}

// Parse parses a config document. path names it in errors and anchors
// relative commands and working directories.
func Parse(path string, data []byte) (*File, error) { return parseAt(path, data) }

func parseAt(path string, data []byte) (*File, error) {
	abs, err := filepath.Abs(path)
	if err == nil {
		path = abs
	}
	return parse(path, filepath.Dir(path), data)
}

// parse parses a document named path whose relative paths start at dir.
func parse(path, dir string, data []byte) (*File, error) {
	p := &parser{path: path, data: data}
	content := data
	data = trimBOM(data)
	p.data = data
	if !gjson.ValidBytes(data) {
		std, ok := standardJSONC(data)
		if !ok {
			return nil, p.syntaxError()
		}
		data, p.data = std, std
	}
	doc := gjson.ParseBytes(data)
	if !doc.IsObject() {
		return nil, p.errAt(doc, "the config must be a JSON object")
	}
	f := &File{Path: path, Dir: dir, OnError: "allow", Content: content}
	p.file = f
	var version bool
	var hooks gjson.Result
	doc.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "openhook":
			version = true
			if v.Type != gjson.String {
				p.fail(v, `"openhook" must be a version string such as "0.1"`)
			} else if !strings.HasPrefix(v.Str, "0.") {
				f.Warnings = append(f.Warnings, p.pos(v)+fmt.Sprintf(": openhook version %q is newer than 0.1; reading it best-effort", v.Str))
			}
		case "spec":
			version = true
			if v.Type != gjson.String {
				p.fail(v, `"spec" must be a string such as "hooks/0.1"`)
			} else if v.Str != "hooks/0.1" && v.Str != "hooks/1.0" {
				f.Warnings = append(f.Warnings, p.pos(v)+fmt.Sprintf(": spec %q is not hooks/0.1 or hooks/1.0; reading it best-effort", v.Str))
			}
		case "hooks":
			hooks = v
		case "on_error":
			f.OnError = p.onError(v)
		case "extends":
			f.Extends = p.extends(f, v)
		case "redact":
			f.Redact = p.strs(v, "redact")
		case "$schema", "description":
		default:
			p.unknown(k, "", topFields)
		}
		return p.err == nil
	})
	if p.err != nil {
		return nil, p.err
	}
	if !version {
		return nil, &Error{Path: path, Line: 1, Col: 1, Msg: `missing "openhook" or "spec": say which format this file is, e.g. "openhook": "0.1"`}
	}
	if !hooks.Exists() && len(f.Extends) > 0 {
		return f, nil // a file that only extends others
	}
	if !hooks.Exists() {
		return nil, &Error{Path: path, Line: 1, Col: 1, Msg: `missing "hooks" array` + meant(doc, "hooks")}
	}
	if !hooks.IsArray() {
		return nil, p.errAt(hooks, `"hooks" must be an array`)
	}
	if len(f.Extends) == 0 && len(hooks.Array()) == 0 {
		// The Hook Interchange Format requires at least one hook: an empty
		// list is most often a config whose hooks were lost in an edit.
		e := p.errAt(hooks, `"hooks" is empty: add a hook (hookshim init writes a starter config)`)
		e.Empty = true
		return nil, e
	}
	i := 0
	hooks.ForEach(func(_, v gjson.Result) bool {
		i++
		h := p.hook(f, v, i)
		if h != nil {
			f.Hooks = append(f.Hooks, h)
		}
		return p.err == nil
	})
	if p.err != nil {
		return nil, p.err
	}
	return f, nil
}

type parser struct {
	file *File // the file being parsed, for warnings
	path string
	data []byte
	err  error

	// at is where the last position was found: positions are asked for in
	// document order, so each is counted on from the last one rather than
	// from the top (which made parsing quadratic in the number of hooks).
	at struct{ off, line, col int }
}

func (p *parser) lineCol(offset int) (int, int) {
	if offset > len(p.data) {
		offset = len(p.data)
	}
	i, line, col := 0, 1, 1
	if p.at.off > 0 && p.at.off <= offset {
		i, line, col = p.at.off, p.at.line, p.at.col
	}
	// Lines counted with bytes.Count and columns in runes from the last
	// line's start: a position of every hook is asked for on every call,
	// and decoding the whole file rune by rune cost a call with a typical
	// rule set more than hashing it.
	seg := p.data[i:offset]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		line += n
		col = 1
		seg = seg[bytes.LastIndexByte(seg, '\n')+1:]
	}
	col += utf8.RuneCount(seg)
	if offset < len(p.data) && utf8.RuneStart(p.data[offset]) {
		p.at.off, p.at.line, p.at.col = offset, line, col
	}
	return line, col
}

func (p *parser) pos(v gjson.Result) string {
	l, c := p.lineCol(v.Index)
	return p.path + ":" + strconv.Itoa(l) + ":" + strconv.Itoa(c)
}

func (p *parser) errAt(v gjson.Result, msg string) *Error {
	l, c := p.lineCol(v.Index)
	return &Error{Path: p.path, Line: l, Col: c, Msg: msg}
}

func (p *parser) fail(v gjson.Result, msg string) {
	if p.err == nil {
		p.err = p.errAt(v, msg)
	}
}

// syntaxError finds where the JSON stops parsing.
func (p *parser) syntaxError() error {
	off := syntaxOffset(p.data)
	l, c := p.lineCol(off)
	return &Error{Path: p.path, Line: l, Col: c, Msg: "not valid JSON here"}
}

func (p *parser) onError(v gjson.Result) string {
	if v.Type != gjson.String || (v.Str != "allow" && v.Str != "deny") {
		p.fail(v, `"on_error" must be "allow" or "deny"`)
		return ""
	}
	return v.Str
}

// hook parses the i-th entry, either format.
func (p *parser) hook(f *File, v gjson.Result, i int) *Hook {
	if !v.IsObject() {
		p.fail(v, fmt.Sprintf("hook %d must be an object", i))
		return nil
	}
	l, _ := p.lineCol(v.Index)
	// Concatenation, not fmt: a config is parsed on every hook call.
	h := &Hook{Pos: p.path + ":" + strconv.Itoa(l), Type: "command", Timeout: DefaultTimeout, TimeoutAction: "warn", Dir: f.Dir}
	// Which format, from one pass over the keys: each Get would read the
	// object again, past its handler, and a config is parsed on every call.
	var hif, oh bool
	v.ForEach(func(k, _ gjson.Result) bool {
		switch k.Str {
		case "handler", "event", "use":
			hif = true
		case "command", "events":
			oh = true
		}
		return true
	})
	switch {
	case hif && oh:
		p.fail(v, fmt.Sprintf(`hook %d mixes the two formats: use "event" + "handler" (Hook Interchange) or "command" + "events" (OpenHook)`, i))
		return nil
	case hif:
		p.interchange(f, h, v, i)
	case oh:
		p.openhook(h, v, i)
	default:
		p.fail(v, fmt.Sprintf(`hook %d has neither "handler" nor "command"`, i))
		return nil
	}
	if p.err != nil {
		return nil
	}
	if h.Name == "" {
		h.Name = "hook " + strconv.Itoa(i)
	}
	if h.Type == "" && p.err == nil {
		// A handler type hookshim does not run: excluded, as the Hook
		// Interchange degradation for llm_evaluated handlers says, with a
		// warning.
		return nil
	}
	return h
}

// openhook parses an OpenHook 0.1 discovery entry:
// {"command", "events", "async"}, plus hookshim's optional name, timeout,
// matcher and blocking.
func (p *parser) openhook(h *Hook, v gjson.Result, i int) {
	events := []string{"*"}
	var eventsAt gjson.Result
	var matcher Matcher
	v.ForEach(func(k, val gjson.Result) bool {
		switch k.Str {
		case "command":
			h.Command = p.str(val, "command")
		case "events":
			eventsAt = val
			events = p.strs(val, "events")
		case "async":
			h.Async = p.boolean(val, "async")
		case "name":
			h.Name = p.str(val, "name")
		case "timeout":
			h.Timeout = p.timeout(val)
		case "blocking":
			h.Blocking = p.boolean(val, "blocking")
		case "matcher":
			matcher = p.matcher(val)
		case "on_error":
			h.OnError = p.onError(val)
		case "dialect":
			h.Dialect = p.str(val, "dialect")
		default:
			p.unknown(k, "OpenHook entry", openhookFields)
		}
		return p.err == nil
	})
	if p.err != nil {
		return
	}
	if strings.TrimSpace(h.Command) == "" {
		p.fail(v, fmt.Sprintf(`hook %d: "command" must not be empty`, i))
		return
	}
	for _, e := range events {
		bs, ok := bindings(e)
		if !ok {
			p.fail(eventsAt, fmt.Sprintf("unknown event %q%s (use a canonical name such as before_tool_execute, an OpenHook type such as tool.start, or \"*\")", e, DidYouMean(e, eventNames())))
			return
		}
		for _, b := range bs {
			if matcher != nil {
				b.Matcher = both(b.Matcher, matcher)
			}
			h.On = append(h.On, b)
		}
	}
}

// interchange parses a Hook Interchange entry.
func (p *parser) interchange(f *File, h *Hook, v gjson.Result, i int) {
	var eventAt, handler, use gjson.Result
	var with bool
	var matcher Matcher
	v.ForEach(func(k, val gjson.Result) bool {
		switch k.Str {
		case "name":
			h.Name = p.str(val, "name")
		case "event":
			eventAt = val
		case "matcher":
			matcher = p.matcher(val)
		case "handler":
			handler = val
		case "blocking":
			h.Blocking = p.boolean(val, "blocking")
		case "degradation":
			h.Degradation = p.degradation(val)
		case "on_error":
			h.OnError = p.onError(val)
		case "provider_data", "capabilities":
			// Informational for hookshim: kept by converters, not used at run time.
		case "use": // a built-in policy in place of a handler: use.go
			use = val
		case "with":
			with = true
		default:
			p.unknown(k, "hook", hookFields)
		}
		return p.err == nil
	})
	if p.err != nil {
		return
	}
	if use.Exists() || with {
		eventAt = p.use(h, v, use, eventAt)
	}
	if p.err != nil {
		return
	}
	if !eventAt.Exists() {
		p.fail(v, fmt.Sprintf(`hook %d has no "event"`, i)+meant(v, "event"))
		return
	}
	if eventAt.Type != gjson.String {
		p.fail(eventAt, `"event" must be a string`)
		return
	}
	bs, ok := bindings(eventAt.Str)
	if !ok {
		p.fail(eventAt, fmt.Sprintf("unknown event %q%s (use a canonical name such as before_tool_execute, an OpenHook type such as tool.start, or an Amplifier name such as tool:pre)", eventAt.Str, DidYouMean(eventAt.Str, eventNames())))
		return
	}
	for _, b := range bs {
		if matcher != nil {
			b.Matcher = both(b.Matcher, matcher)
		}
		h.On = append(h.On, b)
	}
	if h.Type == "use" {
		return
	}
	if !handler.Exists() {
		p.fail(v, fmt.Sprintf(`hook %d has no "handler"`, i)+meant(v, "handler"))
		return
	}
	p.handler(f, h, handler)
}

func (p *parser) handler(f *File, h *Hook, v gjson.Result) {
	if !v.IsObject() {
		p.fail(v, `"handler" must be an object`)
		return
	}
	// (Str is empty for a type that is not a string.)
	switch t := v.Get("type").Str; t {
	case "http", "prompt":
		p.remote(h, v, t)
		return
	case "rule":
		p.rule(h, v)
		return
	}
	typ := "command"
	var platform string
	v.ForEach(func(k, val gjson.Result) bool {
		switch k.Str {
		case "type":
			typ = p.str(val, "type")
			switch typ {
			case "command":
			case "agent":
				// Not run by hookshim yet.
				f.Warnings = append(f.Warnings, p.pos(val)+fmt.Sprintf(": %s handlers are not run by hookshim; hook %q is skipped", typ, h.Name))
			default:
				p.fail(val, fmt.Sprintf(`handler type %q is not one of command, rule, http, prompt, agent`, typ))
			}
		case "command":
			h.Command = p.str(val, "command")
		case "platform":
			platform = p.platform(val)
		case "cwd":
			dir := p.str(val, "cwd")
			if dir != "" {
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(f.Dir, dir)
				}
				h.Dir = dir
			}
		case "env":
			h.Env = p.env(val)
		case "timeout":
			h.Timeout = p.timeout(val)
		case "timeout_action":
			a := p.str(val, "timeout_action")
			if a != "warn" && a != "block" && p.err == nil {
				p.fail(val, `"timeout_action" must be "warn" or "block"`)
			}
			h.TimeoutAction = a
		case "async":
			h.Async = p.boolean(val, "async")
		case "status_message":
			p.str(val, "status_message")
		case "dialect":
			h.Dialect = p.str(val, "dialect")
		default:
			p.unknown(k, "handler", handlerFields)
		}
		return p.err == nil
	})
	if p.err != nil {
		return
	}
	if typ != "command" {
		h.Type, h.Command = "", ""
		return
	}
	if platform != "" {
		h.Command = platform
	}
	if strings.TrimSpace(h.Command) == "" {
		p.fail(v, `a command handler needs a non-empty "command"`)
	}
}

func (p *parser) platform(v gjson.Result) string {
	if !v.IsObject() {
		p.fail(v, `"platform" must be an object of commands keyed by windows, linux or darwin`)
		return ""
	}
	var mine string
	v.ForEach(func(k, val gjson.Result) bool {
		cmd := p.str(val, "platform."+k.Str)
		switch k.Str {
		case "windows", "linux", "darwin", "osx":
		default:
			p.unknown(k, "platform", []string{"windows", "linux", "darwin"})
		}
		os := k.Str
		if os == "osx" {
			os = "darwin"
		}
		if os == runtime.GOOS {
			mine = cmd
		}
		return p.err == nil
	})
	return mine
}

func (p *parser) env(v gjson.Result) []string {
	if !v.IsObject() {
		p.fail(v, `"env" must be an object of strings`)
		return nil
	}
	var env []string
	v.ForEach(func(k, val gjson.Result) bool {
		env = append(env, k.Str+"="+p.str(val, "env."+k.Str))
		return p.err == nil
	})
	sort.Strings(env)
	return env
}

func (p *parser) degradation(v gjson.Result) map[string]string {
	if !v.IsObject() {
		p.fail(v, `"degradation" must be an object such as {"input_rewrite": "warn"}`)
		return nil
	}
	m := map[string]string{}
	v.ForEach(func(k, val gjson.Result) bool {
		s := p.str(val, "degradation."+k.Str)
		if s != "block" && s != "warn" && s != "exclude" && p.err == nil {
			p.fail(val, fmt.Sprintf("degradation strategy %q must be block, warn or exclude", s))
		}
		m[k.Str] = s
		return p.err == nil
	})
	return m
}

func (p *parser) timeout(v gjson.Result) time.Duration {
	if v.Type != gjson.Number || v.Float() < 0 {
		p.fail(v, `"timeout" must be a number of seconds`)
		return 0
	}
	if v.Float() == 0 {
		return DefaultTimeout
	}
	return time.Duration(v.Float() * float64(time.Second))
}

func (p *parser) str(v gjson.Result, name string) string {
	if v.Type != gjson.String {
		p.fail(v, fmt.Sprintf("%q must be a string", name))
		return ""
	}
	return v.Str
}

func (p *parser) strs(v gjson.Result, name string) []string {
	if !v.IsArray() {
		p.fail(v, fmt.Sprintf("%q must be an array of strings", name))
		return nil
	}
	var out []string
	v.ForEach(func(_, e gjson.Result) bool {
		out = append(out, p.str(e, name))
		return p.err == nil
	})
	return out
}

func (p *parser) boolean(v gjson.Result, name string) bool {
	if !v.IsBool() {
		p.fail(v, fmt.Sprintf("%q must be true or false", name))
		return false
	}
	return v.Bool()
}

// matcher parses a Hook Interchange matcher: a bare tool name, a pattern
// object, an MCP object, or an array of those.
func (p *parser) matcher(v gjson.Result) Matcher {
	switch {
	case v.Type == gjson.String:
		if v.Str == "" || v.Str == "*" {
			return nil
		}
		if !slices.Contains(event.ToolNames, v.Str) {
			// A name outside the vocabulary is a native name, matched as
			// written; one a letter away from a canonical name is a typo
			// that would leave the hook silent, so it is named.
			if n := Nearest(v.Str, event.ToolNames); n != "" {
				p.file.Warnings = append(p.file.Warnings, p.pos(v)+fmt.Sprintf(": matcher %q is no canonical tool name and matches only a tool of that native name (did you mean %q?)", v.Str, n))
			}
		}
		return toolName(v.Str)
	case v.IsArray():
		var list anyOf
		wildcard := false
		v.ForEach(func(_, e gjson.Result) bool {
			m := p.matcher(e)
			if m == nil {
				wildcard = true
			} else {
				list = append(list, m)
			}
			return p.err == nil
		})
		if p.err != nil || wildcard || len(list) == 0 {
			return nil
		}
		return list
	case v.IsObject():
		if pat := v.Get("pattern"); pat.Exists() {
			s := p.str(pat, "pattern")
			re, err := regexp.Compile(s)
			if err != nil && p.err == nil {
				p.fail(pat, fmt.Sprintf("pattern is not an RE2 regular expression: %v", err))
				return nil
			}
			p.only(v, "pattern")
			return pattern{re}
		}
		if m := v.Get("mcp"); m.Exists() {
			p.only(v, "mcp")
			if !m.IsObject() {
				p.fail(m, `"mcp" must be an object with "server" and optional "tool"`)
				return nil
			}
			var mm mcp
			m.ForEach(func(k, val gjson.Result) bool {
				switch k.Str {
				case "server":
					mm.server = p.str(val, "server")
				case "tool":
					mm.tool = p.str(val, "tool")
				default:
					p.unknown(k, "mcp matcher", []string{"server", "tool"})
				}
				return p.err == nil
			})
			if mm.server == "" && p.err == nil {
				p.fail(m, `an mcp matcher needs "server"`)
			}
			return mm
		}
		p.fail(v, `a matcher object needs "pattern" or "mcp"`)
	default:
		p.fail(v, "a matcher is a tool name, {\"pattern\": RE2}, {\"mcp\": {...}} or an array of those")
	}
	return nil
}

func (p *parser) only(v gjson.Result, key string) {
	v.ForEach(func(k, _ gjson.Result) bool {
		if k.Str != key {
			p.unknown(k, "matcher", []string{key})
		}
		return p.err == nil
	})
}

// meant names the field of obj that looks like a misspelt field, for
// the error that says field is missing: " (\"evnet\" is not a field: did
// you mean \"event\"?)", or "".
func meant(obj gjson.Result, field string) string {
	out := ""
	obj.ForEach(func(k, _ gjson.Result) bool {
		if k.Str != field && Nearest(k.Str, []string{field}) != "" {
			out = fmt.Sprintf(" (%q is not a field: did you mean %q?)", k.Str, field)
			return false
		}
		return true
	})
	return out
}

// The fields each object of a config knows, for the nearest name to an
// unknown one.
var (
	topFields      = []string{"openhook", "spec", "hooks", "on_error", "extends", "redact", "description", "$schema"}
	hookFields     = []string{"name", "event", "matcher", "handler", "use", "with", "blocking", "degradation", "on_error", "provider_data", "capabilities"}
	handlerFields  = []string{"type", "command", "platform", "cwd", "env", "timeout", "timeout_action", "async", "status_message", "dialect"}
	openhookFields = []string{"command", "events", "async", "name", "timeout", "matcher", "blocking", "on_error", "dialect"}
)

// unknown records a field the config does not know. The Hook Interchange
// Format asks parsers to ignore unknown fields, so that a newer file still
// runs: the field is ignored, never the config, and the warning names the
// field meant ("matchr": "matcher") so that a typo does not go unseen.
// Fields that start with "_" are metadata ("_comment") and pass in silence.
func (p *parser) unknown(k gjson.Result, in string, known []string) {
	if strings.HasPrefix(k.Str, "_") {
		return
	}
	where := ""
	if in != "" {
		where = " in " + in
	}
	w := p.pos(k) + fmt.Sprintf(": unknown field %q%s is ignored%s", k.Str, where, DidYouMean(k.Str, known))
	p.file.Warnings = append(p.file.Warnings, w)
	if slices.Contains(failFields, Nearest(k.Str, known)) {
		p.file.Unsafe = append(p.file.Unsafe, w)
	}
}

// failFields decide whether a hook's failure or answer can let a call
// through: a misspelling of one silently turns a fail-closed hook into a
// fail-open one, which the user would believe protects them.
var failFields = []string{"on_error", "blocking", "timeout_action"}

func trimBOM(b []byte) []byte {
	return bytes.TrimPrefix(b, []byte("\ufeff"))
}
