// Package dialect runs a handler written for one tool under any tool: it
// turns the canonical event back into the payload that tool would have
// sent (its event name, keys, tool names and tool-input shapes, session
// fields and hook variables), and reads the handler's answer by that
// tool's contract into the canonical output.
//
// Everything it knows about a tool is in the provider table, read
// backwards: Fields, Keep and Tools map native to canonical, so the
// payload is written by inverting them, and provider.Dialect adds what
// the table had no need for before (the event key, the keys sent on every
// call, the answer reader). What the dialect's payload needs and the
// caller did not send is filled where it can be derived and otherwise
// left out; each such gap is reported (Gaps per call, Lossy per pair).
package dialect

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Lookup returns the provider a handler's "dialect" names, or an error
// that says why no handler can speak it.
func Lookup(id string) (*provider.Provider, error) {
	pr := provider.Lookup(id)
	if pr == nil {
		return nil, fmt.Errorf("dialect %q is not a known tool (dialects: %s)", id, strings.Join(IDs(), ", "))
	}
	if pr.Dialect == nil {
		return nil, fmt.Errorf("dialect %q: %s has no command hooks, so no handler is written for it (dialects: %s)",
			id, pr.Name, strings.Join(IDs(), ", "))
	}
	return pr, nil
}

// IDs lists the tools a handler may speak, in registry order.
func IDs() []string {
	var ids []string
	for _, pr := range provider.Commanded() {
		ids = append(ids, pr.ID)
	}
	return ids
}

// Call is a dialect handler's side of one call: what it reads on stdin,
// the variables it gets, how its answer is read, and what could not be
// given to it.
type Call struct {
	Native string   // the event as the dialect names it
	Input  [][]byte // the payload, in pieces (see run.Job)
	Env    []string
	Read   func(exit int, stdout []byte, stderr string) (decision.Output, error)
	Gaps   []string // what the dialect's payload needs that the caller did not send, or sent only in part
	// Shell starts the handler's command line the way the dialect's tool
	// does (see provider.Dialect.Shell); nil on Windows, where hookshim
	// starts it its own way.
	Shell []string
	// EnvFile names the variable under which the handler gets a file for
	// its exports on this event ("" for none): see run.Job.EnvFile.
	EnvFile string

	// More are the payloads of the other files of a call that writes
	// several (a patch): the handler is run once more with each, and the
	// strongest of its answers is the handler's.
	More [][][]byte

	temp []string // files written for this call only (a converted transcript)
}

// Cleanup removes what the call wrote for the handler; the caller calls
// it once the handler has answered.
func (c *Call) Cleanup() {
	for _, f := range c.temp {
		os.Remove(f)
	}
	c.temp = nil
}

// ErrNoEvent is returned by Speak when the dialect has no event for the
// canonical event: no handler written for it listens there.
var ErrNoEvent = errors.New("no such event")

// NativeEvent is the event of d that a handler written for it is called
// on for ev, "" when d has none. A tool without a failure event reports a
// failed tool as its after-tool event (Gemini CLI: tool_response.error).
func NativeEvent(d *provider.Provider, ev *event.Event) string {
	native := d.NativeEvent(ev, ev.Name)
	if native == "" && ev.Name == event.ToolUseFailure {
		native = d.NativeEvent(ev, event.AfterToolExecute)
	}
	return native
}

// Options are what a call of a dialect handler needs from the process
// beyond the event.
type Options struct {
	Now time.Time // stamps the payloads that carry the time
	// Wd is hookshim's working folder: the caller's cwd when it sends
	// none (Amplifier runs its hooks there).
	Wd string
	// Session is a session id of the caller's process for a caller that
	// sends none: the same for every call of one agent process.
	Session string
	// Home is the user's home folder: the search for the project folder
	// stops below it.
	Home string
	file int // the file of a call of several files the payload is written for

	// TempDir is where a transcript converted for the dialect is written
	// (a private file, removed by Call.Cleanup); "" converts none.
	TempDir string
}

// Speak builds the call of a handler written for d when caller sent the
// canonical event ev. now stamps the payloads that carry the time.
func Speak(d, caller *provider.Provider, ev *event.Event, now time.Time) (*Call, error) {
	return SpeakWith(d, caller, ev, Options{Now: now})
}

// SpeakWith is Speak with the process's part of the call given.
func SpeakWith(d, caller *provider.Provider, ev *event.Event, o Options) (*Call, error) {
	name := ev.Name
	own := d == caller && !repicked(d, ev)
	native := ev.Native
	if !own {
		native = NativeEvent(d, ev)
	}
	if native == "" {
		return nil, fmt.Errorf("%s has no event for %s: %w", d.Name, name, ErrNoEvent)
	}
	spec := d.Spec(native)
	if spec == nil {
		return nil, fmt.Errorf("%s has no event %q", d.Name, native)
	}
	c := &Call{Native: native}
	var files *fileView
	if own {
		// Its own tool called: the payload as it came, byte for byte.
		c.Input = [][]byte{ev.Raw}
	} else {
		ev = filled(d, caller, ev, o, c)
		w, err := payload(d, caller, spec, ev, o)
		if err != nil {
			c.Cleanup()
			return nil, fmt.Errorf("%s payload: %w", d.ID, err)
		}
		c.Input, c.Gaps, files = [][]byte{w.doc}, append(c.Gaps, w.gaps...), w.files
		for i := 1; i < w.count; i++ {
			// A hook that judges the file in tool_input judges every file
			// of the call, each in a call of its own.
			oi := o
			oi.file = i
			wi, err := payload(d, caller, spec, ev, oi)
			if err != nil {
				c.Cleanup()
				return nil, fmt.Errorf("%s payload: %w", d.ID, err)
			}
			c.More = append(c.More, [][]byte{wi.doc})
		}
	}
	c.Env = environ(d, ev, d.Dialect.EventSpelling(native), o.Now)
	c.Shell = shellOn(runtime.GOOS, d.Dialect.Shell)
	if d.Dialect.EnvFile != "" && slices.Contains(d.Dialect.EnvFileEvents, native) {
		c.EnvFile = d.Dialect.EnvFile
	}
	c.Read = func(exit int, stdout []byte, stderr string) (decision.Output, error) {
		out, err := d.Dialect.Read(spec, exit, stdout, stderr)
		if err != nil {
			return out, fmt.Errorf("%s answer: %w", d.ID, err)
		}
		if out.UpdatedInput == nil || d == caller || ev.Tool == nil {
			return out, nil
		}
		switch {
		case files != nil && files.converted != "":
			// The hook rewrote a call it was given in another shape: there
			// is no way back into the caller's, and dropping the rewrite
			// silently would let through what it meant to change.
			out.UpdatedInput = nil
			out.Decision = max(out.Decision, decision.Ask)
			out.Reason = strings.TrimSpace(fmt.Sprintf("hookshim: the hook rewrote this %s call, which reached it in another shape (%s); the rewrite cannot be put back into %s's input, so the call is put to the user. %s",
				ev.Tool.Native, files.converted, caller.Name, out.Reason))
		case files != nil:
			// The rewrite is in the dialect's keys; the caller applies it
			// in its own.
			out.UpdatedInput = rekey(out.UpdatedInput, d.Dialect.InputKeysFor(files.calls[0].tool), files.renamed)
		default:
			out.UpdatedInput = rekey(out.UpdatedInput, d.Dialect.InputKeysFor(ev.Tool.Name), caller.Dialect.InputKeysFor(ev.Tool.Name))
		}
		return out, nil
	}
	return c, nil
}

// repicked reports whether the tool's own call is not the event a
// handler written for it is given: Cursor also sends a shell command as
// preToolUse, but a Cursor hook for commands is written for
// beforeShellExecution, and both calls share one answer (the second is a
// duplicate), so both must ask the hook the same way.
func repicked(d *provider.Provider, ev *event.Event) bool {
	if d.Dialect.Pick == nil {
		return false
	}
	n, ok := d.Dialect.Pick(ev, ev.Name)
	return ok && n != "" && n != ev.Native
}

// payload writes the dialect's payload for ev in one pass: flat keys into
// one object, then the few nested ones.
func payload(d, caller *provider.Provider, spec *provider.Spec, ev *event.Event, o Options) (*writer, error) {
	w := &writer{ev: ev, now: o.Now, event: d.Dialect.EventSpelling(spec.Native)}
	if d == caller {
		// Its own call, given as another of its events: what it sends on
		// every call is in the payload as it came.
		w.own = ev.Raw
	}
	f := d.Fields
	w.str(f.SessionID, ev.SessionID, "session id")
	w.str(f.Transcript, ev.TranscriptPath, "transcript path")
	cwd := ev.Cwd
	if d.Dialect.CwdIsProject && ev.ProjectDir != "" {
		cwd = ev.ProjectDir
	}
	if cwd == "" && f.Cwd != "" && ev.ProjectDir != "" {
		cwd = ev.ProjectDir
		w.gap(f.Cwd + " (the project folder given instead)")
	}
	w.str(f.Cwd, cwd, "working directory")
	for _, a := range d.Dialect.Always {
		w.from(a.To, a.From) // {key, source}
	}
	if k := d.Dialect.EventKey; k != "" {
		w.raw(k, wire.Quote(w.event))
	}
	if ev.Model != "" {
		w.str(f.Model, ev.Model, "")
	}
	var tool string
	var input []byte
	finishEv := ev
	if t := ev.Tool; t != nil {
		var more [][]byte
		if v := viewFiles(t, caller.Dialect.InputKeysFor(t.Name), cmp.Or(ev.Cwd, ev.ProjectDir, o.Wd)); v != nil {
			w.files = v
			sp := speakFiles(d, t, v)
			w.files, w.count = v, len(sp)
			k := min(o.file, len(sp)-1)
			tool, input = sp[k].name, sp[k].input
			fe := *ev
			fe.Tool = &sp[k].tool
			finishEv = &fe
			if k == 0 {
				for _, s := range sp[1:] {
					more = append(more, (&wire.Object{}).Str("tool_name", s.name).Raw("tool_input", s.input).Bytes())
				}
			}
			for _, n := range v.notes {
				w.gap(f.ToolInput + " (" + t.Native + ": " + n + ")")
			}
			if len(sp) > 1 {
				w.gap(fmt.Sprintf("%s (%s writes several files in one call: the hook runs once for each, the first listing the others in hookshim_more_files)",
					f.ToolInput, t.Native))
			}
		} else {
			tool = toolName(d, t, w)
			input = toolInput(t, caller.Dialect.InputKeysFor(t.Name), d.Dialect.InputKeysFor(t.Name))
		}
		w.str(f.ToolName, tool, "")
		w.raw(f.ToolInput, input)
		if len(more) > 0 {
			w.raw("hookshim_more_files", jsonArray(more))
		}
		w.str(f.ToolCallID, t.CallID, "tool call id")
		switch {
		case t.Error != nil && f.ToolError != "":
			w.raw(f.ToolError, t.Error)
		case t.Error != nil:
			w.raw(f.ToolOutput, (&wire.Object{}).Raw("error", t.Error).Bytes())
		case spec.Canonical == event.AfterToolExecute && f.ToolOutput != "":
			if t.Output == nil {
				w.gap(f.ToolOutput + " (" + caller.Name + " sends no result)")
			}
			out, note := response(d, caller, finishEv.Tool, t.Output, cmp.Or(ev.Cwd, ev.ProjectDir, o.Wd))
			if note != "" {
				w.gap(f.ToolOutput + " (" + note + ")")
			}
			w.raw(f.ToolOutput, out)
		}
	}
	if ev.Prompt != nil {
		w.raw(f.Prompt, wire.Quote(*ev.Prompt))
	}
	for _, fl := range ev.Fields {
		if native, ok := inverse(d.Keep, fl.Key); ok {
			w.raw(native, fl.Value)
		}
	}
	doc := w.o.Close()
	var err error
	for _, n := range w.nested {
		if doc, err = sjson.SetRawBytes(doc, n.path, n.v); err != nil {
			return nil, err
		}
	}
	if d.Dialect.Finish != nil {
		if doc, err = d.Dialect.Finish(doc, spec, finishEv, tool, input); err != nil {
			return nil, err
		}
	}
	w.doc = doc
	return w, nil
}

// writer writes a payload's keys once each, in the order given.
type writer struct {
	ev     *event.Event
	now    time.Time
	event  string // the native event, spelt as the dialect's tool writes it
	own    []byte // the tool's own payload, when the dialect's tool called
	o      wire.Object
	keys   []string
	nested []struct {
		path string
		v    []byte
	}
	gaps  []string
	files *fileView // the file tool call as read, when it is one
	count int       // the calls it was read into
	doc   []byte    // the payload written
}

func (w *writer) gap(s string) { w.gaps = append(w.gaps, s) }

// raw writes path = v, once; nothing for an empty path or a nil value.
func (w *writer) raw(path string, v []byte) {
	if path == "" || v == nil || slices.Contains(w.keys, path) {
		return
	}
	w.keys = append(w.keys, path)
	if strings.ContainsAny(path, ".") {
		w.nested = append(w.nested, struct {
			path string
			v    []byte
		}{path, v})
		return
	}
	w.o.Raw(path, v)
}

// str writes a string field, or notes it missing when what names it.
func (w *writer) str(path, s, what string) {
	if path == "" {
		return
	}
	if s == "" {
		if what != "" {
			w.gap(path)
		}
		return
	}
	w.raw(path, wire.Quote(s))
}

// from writes key from one of the provider.From sources or a canonical
// data field.
func (w *writer) from(from, key string) {
	if v := value(w.ev, from, w.event, w.now); v != nil {
		w.raw(key, v)
		return
	}
	if r := gjson.GetBytes(w.own, key); w.own != nil && r.Exists() {
		w.raw(key, []byte(r.Raw))
		return
	}
	if !slices.Contains(w.keys, key) {
		w.gap(key)
	}
}

// value is what a provider.From source (or provider.Literal) holds for
// ev, whose native event in the dialect is spelt native, as JSON; nil when
// the caller did not send it.
func value(ev *event.Event, from, native string, now time.Time) []byte {
	if lit, ok := strings.CutPrefix(from, "="); ok {
		return wire.Quote(lit)
	}
	switch from {
	case provider.FromEvent:
		return quoted(native)
	case provider.FromProjectDir:
		return quoted(ev.ProjectDir)
	case provider.FromProjectRoots:
		if ev.ProjectDir == "" {
			return nil
		}
		return append(append([]byte("["), wire.Quote(ev.ProjectDir)...), ']')
	case provider.FromCwd:
		return quoted(cmp.Or(ev.Cwd, ev.ProjectDir))
	case provider.FromSessionID:
		return quoted(ev.SessionID)
	case provider.FromPrompt:
		if ev.Prompt == nil {
			return nil
		}
		return wire.Quote(*ev.Prompt)
	case provider.FromNow:
		return wire.Quote(now.UTC().Format("2006-01-02T15:04:05.000Z"))
	case provider.FromNowMillis:
		return strconv.AppendInt(nil, now.UnixMilli(), 10)
	case provider.FromNowMillisStr:
		return wire.Quote(strconv.FormatInt(now.UnixMilli(), 10))
	}
	return ev.Get(from)
}

func quoted(s string) []byte {
	if s == "" {
		return nil
	}
	return wire.Quote(s)
}

// environ is the variables the dialect's hooks get: the project folder
// under each of its names, then the others it sets; native is the event
// as the dialect spells it.
func environ(d *provider.Provider, ev *event.Event, native string, now time.Time) []string {
	var env []string
	if ev.ProjectDir != "" {
		for _, name := range d.ProjectDirEnv {
			if _, own := d.Dialect.Env.Get(name); !own {
				// (Gemini CLI's GEMINI_CWD tells the project folder when
				// read, but is set to the working directory.)
				env = append(env, name+"="+ev.ProjectDir)
			}
		}
	}
	for _, e := range d.Dialect.Env {
		v := value(ev, e.To, native, now)
		if v == nil {
			continue
		}
		s := gjson.ParseBytes(v).String()
		env = append(env, e.From+"="+s)
	}
	return env
}

// ToolName is the tool's name in the dialect d: the caller's own name
// when the dialect uses it for the same tool, else the dialect's first
// name for the canonical one, an MCP tool by the dialect's rule; ok is
// false when the dialect has no name for it (the caller's is returned).
func ToolName(d *provider.Provider, t *event.Tool) (name string, ok bool) {
	if t.MCP != nil {
		if d.Dialect != nil && d.Dialect.MCPName != nil {
			return d.Dialect.MCPName(t.MCP.Server, t.MCP.Tool), true
		}
		return event.MCPName(t.MCP.Server, t.MCP.Tool), true
	}
	if c, ok := d.Tools.Get(t.Native); ok && c == t.Name {
		return t.Native, true
	}
	if from, ok := d.Tools.From(t.Name); ok {
		return from, true
	}
	return t.Native, false
}

// toolName is ToolName, noting a tool of the vocabulary the dialect has
// no name for.
func toolName(d *provider.Provider, t *event.Tool, w *writer) string {
	name, ok := ToolName(d, t)
	if !ok && len(d.Tools) > 0 && slices.Contains(event.ToolNames, t.Name) {
		// (A tool that names no tools, Windsurf, says the kind in the event.)
		w.gap("tool " + t.Name + " (no " + d.Name + " tool: sent as " + t.Native + ")")
	}
	return name
}

// inverse finds the native key of a canonical data field in a Keep table.
func inverse(keep []provider.Renames, canonical string) (string, bool) {
	for _, rs := range keep {
		if from, ok := rs.From(canonical); ok {
			return from, true
		}
	}
	return "", false
}

// toolInput is the tool's input in the dialect's keys: the caller's keys
// renamed to the canonical ones and those to the dialect's (see rekey),
// with the command and file path normalization found added under their
// canonical keys where the caller's input has them elsewhere (Cline's
// command list, Kiro's read operations).
func toolInput(t *event.Tool, from, to provider.Renames) []byte {
	var add [][2]string
	in := gjson.ParseBytes(t.Input)
	has := func(canonical string) bool {
		if in.Get(canonical).Exists() {
			return true
		}
		for _, r := range from {
			if r.To == canonical && in.Get(r.From).Exists() {
				return true
			}
		}
		return false
	}
	if t.Name == event.ToolShell && t.Command != "" && !has("command") {
		add = append(add, [2]string{"command", t.Command})
	}
	switch t.Name {
	case event.ToolFileRead, event.ToolFileWrite, event.ToolFileEdit:
		if t.FilePath != "" && !has("file_path") {
			add = append(add, [2]string{"file_path", t.FilePath})
		}
	}
	if len(add) == 0 {
		return rekey(t.Input, from, to)
	}
	o := &wire.Object{}
	for _, kv := range add {
		o.Str(kv[0], kv[1])
	}
	in.ForEach(func(k, v gjson.Result) bool {
		o.Raw(k.Str, []byte(v.Raw))
		return true
	})
	return rekey(o.Close(), from, to)
}

// rekey renames a tool input's top-level keys: by from (native to
// canonical, read forwards) and then by to (native to canonical, read
// backwards). A key that neither names stays as it is; the input is
// returned untouched when nothing is renamed.
func rekey(input []byte, from, to provider.Renames) []byte {
	if len(from) == 0 && len(to) == 0 {
		return input
	}
	doc := gjson.ParseBytes(input)
	if !doc.IsObject() {
		return input
	}
	o := &wire.Object{}
	o.Grow(len(input) + 16)
	changed := false
	doc.ForEach(func(k, v gjson.Result) bool {
		key := k.Str
		if c, ok := from.Get(key); ok {
			key = c
		}
		if n, ok := to.From(key); ok {
			key = n
		}
		changed = changed || key != k.Str
		o.Raw(key, []byte(v.Raw))
		return true
	})
	if !changed {
		return input
	}
	return o.Close()
}

// shellOn is the shell a dialect handler's command line starts under on
// the system goos: the dialect's tool's own (nil: sh -c). On Windows the
// tools' shells are not these, and nil leaves the start to hookshim's own
// way there (cmd.exe, see run).
func shellOn(goos string, shell []string) []string {
	switch {
	case goos == "windows":
		return nil
	case shell == nil:
		return []string{"sh", "-c"}
	}
	return shell
}
