// Package policy is hookshim's built-in policy pack: the checks users write
// most, run in-process on the canonical event. A config entry names one
// with "use" and gives its parameters with "with":
//
//	{"event": "before_tool_execute", "use": "hookshim/destructive-shell",
//	 "with": {"allow_paths": ["/var/tmp/**"]}}
//
// Compile checks the parameters once (at allow, doctor and every call,
// before anything runs); Eval answers for one event. Compiling is cheap:
// every call of hookshim is a fresh process, so regular expressions are
// compiled on first use only, and only by the policies that need them.
package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/tidwall/gjson"
)

// Policy is a compiled policy with its parameters.
type Policy struct {
	name   string
	kind   decision.Kind // what a finding answers: deny (default) or ask
	unsure decision.Kind // what a finding it is not sure of answers: ask (default) or deny
	shell  bool          // it reads shell command lines
	eval   func(ev *event.Event) (finding string)
}

// Name is the policy's name, as in "use".
func (p *Policy) Name() string { return p.name }

// Eval answers for one event: the zero Output when the policy has nothing
// to say, otherwise a deny (or ask) with the reason.
//
// A policy that reads shell command lines is never silent on a line it
// cannot read: a syntax error, a construct the reader does not follow or
// programs nested beyond its budget leave it unsure (package shellcmd's
// ParseError), unless what was read before the problem is reason enough.
func (p *Policy) Eval(ev *event.Event) decision.Output {
	if ev == nil {
		return decision.Output{}
	}
	f := p.eval(ev)
	kind := p.kind
	if rest, ok := strings.CutPrefix(f, unsure); ok {
		f, kind = rest, p.unsure
	}
	if f == "" && p.shell {
		if why := unreadable(ev); why != "" {
			f, kind = why, p.unsure
		}
	}
	if f == "" {
		return decision.Output{}
	}
	return decision.Output{Decision: kind, Reason: f + " (" + p.name + ")"}
}

// unreadable says why a shell tool call's command line cannot be read to
// its end, or "".
func unreadable(ev *event.Event) string {
	if ev.Tool == nil || ev.Tool.Name != event.ToolShell || ev.Tool.Command == "" {
		return ""
	}
	if _, err := ev.Shell.Read(ev.Tool.Shell, ev.Tool.Command, ev.Cwd); err != nil {
		return "this command line could not be read to its end (" + err.Error() + "); check it by hand"
	}
	return ""
}

// unsure starts a finding the policy cannot be sure of (a line it could
// not read, a branch it could not find, a target known only at run time):
// it answers the policy's "unsure" decision, ask unless configured deny.
const unsure = "\x00"

// Info documents one policy; docs/policies.md and `hookshim policies` are
// made from it, and every example in it is a test case.
type Info struct {
	Name    string
	Summary string       // one line
	Events  []event.Name // the events it reads; the first is the default
	Catches string
	Misses  string
	Params  []Param
	Denied  []Example // examples it stops, as tested
	Allowed []Example // look-alikes it lets through, as tested
}

// Param is one parameter of a policy.
type Param struct {
	Name, Type, Doc string
}

// Example is an event in short: a shell command, a file tool's path, or a
// prompt.
type Example struct {
	Tool  string // event.ToolShell, ToolFileRead, …; "" for a prompt
	Text  string // the command, path or prompt
	With  string // parameters, JSON; "" for the defaults
	Cwd   string // "" for /home/u/project
	Notes string
	// Shell is the shell of a shell tool's command: "" for bash,
	// event.ShellPowerShell for a PowerShell tool's line.
	Shell string
}

// spec is one policy of the pack.
type spec struct {
	Info
	compile func(p *params) (func(ev *event.Event) string, error)
}

// pack lists the policies, in the order they are documented.
func pack() []*spec {
	return []*spec{destructiveShell, protectedBranches, gitDiscard, secretFiles, promptSecrets, pipeToShell, outsideProject, urlInstalls, hookTampering}
}

// Names lists the built-in policies.
func Names() []string {
	var out []string
	for _, s := range pack() {
		out = append(out, s.Name)
	}
	return out
}

// Lookup returns the documentation of a policy.
func Lookup(name string) (Info, bool) {
	for _, s := range pack() {
		if s.Name == name {
			return s.Info, true
		}
	}
	return Info{}, false
}

// Error is a problem with a "use" entry. Offset is the byte offset in the
// "with" value of the part at fault (-1 for the name).
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// Compile checks a policy's parameters (a JSON object, or empty for the
// defaults) and returns the policy ready to evaluate.
func Compile(name string, with []byte) (*Policy, error) {
	var s *spec
	for _, c := range pack() {
		if c.Name == name {
			s = c
		}
	}
	if s == nil {
		return nil, &Error{Offset: -1, Msg: fmt.Sprintf("unknown policy %q (built in: %s)", name, strings.Join(Names(), ", "))}
	}
	p := &params{policy: s}
	if len(strings.TrimSpace(string(with))) > 0 {
		if !gjson.ValidBytes(with) {
			return nil, &Error{Offset: 0, Msg: `"with" is not valid JSON`}
		}
		p.doc = gjson.ParseBytes(with)
		if !p.doc.IsObject() {
			return nil, &Error{Offset: 0, Msg: fmt.Sprintf(`"with" must be an object of parameters for %s`, name)}
		}
	}
	kind := decision.Deny
	if d := p.str("decision"); d != "" {
		k, ok := decision.ParseKind(d)
		if !ok || k == decision.Allow {
			p.fail(p.at("decision"), `"decision" must be "deny" or "ask"`)
		}
		kind = k
	}
	shell := readsShell(s.Info)
	unsureKind := decision.Ask
	if shell {
		if d := p.str(UnsureParam.Name); d != "" {
			k, ok := decision.ParseKind(d)
			if !ok || k == decision.Allow {
				p.fail(p.at(UnsureParam.Name), `"unsure" must be "ask" or "deny"`)
			}
			unsureKind = k
		}
	}
	eval, err := s.compile(p)
	if err == nil {
		err = p.err
	}
	if err == nil {
		err = p.unknown()
	}
	if err != nil {
		return nil, err
	}
	return &Policy{name: name, kind: kind, unsure: unsureKind, shell: shell, eval: eval}, nil
}

// params reads a "with" object, remembering which keys were read so that
// a misspelt one is an error.
type params struct {
	policy *spec
	doc    gjson.Result
	read   []string
	err    error
}

func (p *params) at(key string) int {
	off := 0
	p.doc.ForEach(func(k, v gjson.Result) bool {
		if k.Str == key {
			off = v.Index
			return false
		}
		return true
	})
	return off
}

func (p *params) fail(off int, msg string) {
	if p.err == nil {
		p.err = &Error{Offset: off, Msg: p.policy.Name + ": " + msg}
	}
}

func (p *params) get(key string) gjson.Result {
	p.read = append(p.read, key)
	if !p.doc.Exists() {
		return gjson.Result{}
	}
	return p.doc.Get(gjson.Escape(key))
}

// strs reads an array of strings; absent is nil.
func (p *params) strs(key string) []string {
	v := p.get(key)
	if !v.Exists() {
		return nil
	}
	if !v.IsArray() {
		p.fail(v.Index, fmt.Sprintf("%q must be an array of strings", key))
		return nil
	}
	out := []string{}
	v.ForEach(func(_, e gjson.Result) bool {
		if e.Type != gjson.String || e.Str == "" {
			p.fail(e.Index, fmt.Sprintf("%q must be an array of non-empty strings", key))
			return false
		}
		out = append(out, e.Str)
		return true
	})
	return out
}

func (p *params) str(key string) string {
	v := p.get(key)
	if !v.Exists() {
		return ""
	}
	if v.Type != gjson.String {
		p.fail(v.Index, fmt.Sprintf("%q must be a string", key))
	}
	return v.Str
}

// boolean reads a true or false; absent is def.
func (p *params) boolean(key string, def bool) bool {
	v := p.get(key)
	if !v.Exists() {
		return def
	}
	if v.Type != gjson.True && v.Type != gjson.False {
		p.fail(v.Index, fmt.Sprintf("%q must be true or false", key))
	}
	return v.Bool()
}

// unknown reports the first parameter no one read.
func (p *params) unknown() error {
	var err error
	p.doc.ForEach(func(k, _ gjson.Result) bool {
		if !slices.Contains(p.read, k.Str) {
			var known []string
			for _, q := range Params(p.policy.Info) {
				known = append(known, q.Name)
			}
			err = &Error{Offset: k.Index, Msg: fmt.Sprintf("%s: unknown parameter %q (known: %s)", p.policy.Name, k.Str, strings.Join(known, ", "))}
			return false
		}
		return true
	})
	return err
}

// DecisionParam is the parameter every policy takes.
var DecisionParam = Param{"decision", `"deny" or "ask"`, `what a finding answers (default "deny")`}

// UnsureParam is the parameter every policy that reads tool calls takes.
var UnsureParam = Param{"unsure", `"ask" or "deny"`, `what a finding the policy is not sure of answers (default "ask"): ` +
	`a shell command line it cannot read to its end (a syntax error, a construct not followed, programs nested too deep), ` +
	`a target known only at run time where it matters (` + "`rm -rf \"$DIR\"/`" + `), a force-push whose branch it cannot find; never "allow"`}

// Params are a policy's parameters: the common ones first.
func Params(i Info) []Param {
	out := []Param{DecisionParam}
	if readsShell(i) {
		out = append(out, UnsureParam)
	}
	return append(out, i.Params...)
}

// readsShell reports whether a policy reads tool calls, shell command
// lines among them.
func readsShell(i Info) bool {
	return slices.Contains(i.Events, event.BeforeToolExecute)
}

// toolEvents are the events at which a tool call can still be stopped.
var toolEvents = []event.Name{event.BeforeToolExecute, event.PermissionRequest}
