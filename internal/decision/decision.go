// Package decision holds the canonical answer of a handler (Hook Interchange
// output schema) and the rules that merge several answers into one verdict.
package decision

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Kind is a canonical permission decision. None means "no opinion": the tool
// does what it would have done without hookshim.
type Kind int

// The order is the precedence of merged answers. Defer is Claude Code's:
// the call is held for the program driving the session (claude -p, the
// Agent SDK) to decide later; Claude ranks it below deny and above ask.
const (
	None Kind = iota
	Allow
	Ask
	Defer
	Deny
)

func (k Kind) String() string {
	switch k {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Defer:
		return "defer"
	case Deny:
		return "deny"
	}
	return "none"
}

// ParseKind reads a canonical decision string.
func ParseKind(s string) (Kind, bool) {
	switch s {
	case "allow":
		return Allow, true
	case "ask":
		return Ask, true
	case "defer":
		return Defer, true
	case "deny":
		return Deny, true
	}
	return None, false
}

// Output is one handler's canonical answer.
type Output struct {
	Handler        string // handler name, for reasons and logs
	Decision       Kind
	Reason         string
	Continue       *bool
	Context        string
	UpdatedInput   []byte // JSON object; replaces tool_input (native keys)
	SuppressOutput bool
	SystemMessage  string
	// Env is a JSON object of strings: variables the handler sets for the
	// rest of the session (Cursor's sessionStart env, Claude Code's
	// CLAUDE_ENV_FILE exports read back), for a caller that takes them.
	Env []byte
}

// Empty reports whether the output says nothing at all.
func (o *Output) Empty() bool {
	return o.Decision == None && o.Reason == "" && o.Continue == nil && o.Context == "" &&
		o.UpdatedInput == nil && !o.SuppressOutput && o.SystemMessage == "" && o.Env == nil
}

// Parse reads a handler's stdout (exit 0) as canonical output. Empty stdout
// is "no opinion"; anything but one JSON object with fields of the right type
// is an error, never an allow.
//
// A field given twice counts as if two handlers had given the values, and
// is merged by Merge's rules: the most restrictive decision wins (deny,
// then allow, is a deny: a reader that keeps the last key would allow),
// continue: false and suppress_output: true win, texts are joined, and two
// different rewrites of the input deny the call.
func Parse(handler string, stdout []byte) (Output, error) {
	out := Output{Handler: handler}
	s := bytes.TrimSpace(stdout)
	if len(s) == 0 {
		return out, nil
	}
	if !gjson.ValidBytes(s) {
		return out, fmt.Errorf("stdout is not JSON: %s", excerpt(s))
	}
	doc := gjson.ParseBytes(s)
	if !doc.IsObject() {
		return out, fmt.Errorf("stdout is JSON but not an object: %s", excerpt(s))
	}
	var err error
	rewrites := false // updated_input given twice, differently
	doc.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "decision":
			if v.Type != gjson.String {
				err = fmt.Errorf("decision must be a string")
				return false
			}
			kind, ok := ParseKind(v.Str)
			if !ok {
				err = fmt.Errorf("decision %q is not allow, deny, ask or defer", v.Str)
				return false
			}
			out.Decision = max(out.Decision, kind)
		case "reason":
			err = str(v, "reason", "; ", &out.Reason)
		case "context":
			err = str(v, "context", "\n\n", &out.Context)
		case "system_message":
			err = str(v, "system_message", "\n", &out.SystemMessage)
		case "continue":
			if !v.IsBool() {
				err = fmt.Errorf("continue must be true or false")
				return false
			}
			if b := v.Bool(); out.Continue == nil || !b {
				out.Continue = &b
			}
		case "suppress_output":
			if !v.IsBool() {
				err = fmt.Errorf("suppress_output must be true or false")
				return false
			}
			out.SuppressOutput = out.SuppressOutput || v.Bool()
		case "updated_input":
			if v.Type == gjson.Null {
				return true
			}
			if !v.IsObject() {
				err = fmt.Errorf("updated_input must be an object")
				return false
			}
			if out.UpdatedInput != nil && !sameJSON(out.UpdatedInput, []byte(v.Raw)) {
				rewrites = true
			}
			out.UpdatedInput = []byte(v.Raw)
		}
		// Unknown fields are ignored: the Hook Interchange output schema
		// grows by adding optional fields.
		return err == nil
	})
	if err == nil && rewrites {
		// As two handlers rewriting the input differently (Merge): which
		// one to run cannot be guessed.
		out.Decision, out.UpdatedInput = Deny, nil
		out.Reason = join(out.Reason, "; ", fmt.Sprintf(
			"hookshim: handler %q gave updated_input twice, differently; refusing to guess which to run", handler))
	}
	return out, err
}

// str reads a text field into dst; a second value of the same field is
// joined to the first with sep.
func str(v gjson.Result, name, sep string, dst *string) error {
	if v.Type == gjson.Null {
		return nil
	}
	if v.Type != gjson.String {
		return fmt.Errorf("%s must be a string", name)
	}
	*dst = join(*dst, sep, v.Str)
	return nil
}

// join appends s to what was given before, once.
func join(before, sep, s string) string {
	switch {
	case before == "" || before == s:
		return s
	case s == "":
		return before
	}
	return before + sep + s
}

func excerpt(b []byte) string {
	const max = 80
	s := strings.ToValidUTF8(string(b), "?")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// Verdict is the merged answer of all handlers for one event.
type Verdict struct {
	Decision       Kind
	Reason         string // reasons of the winning decision, in config order
	Stop           bool   // some handler said continue: false
	StopReason     string
	Context        string // contexts, in config order
	UpdatedInput   []byte
	SuppressOutput bool
	SystemMessage  string
	Env            []byte   // the handlers' session variables, one JSON object (the later handler's value wins)
	Notes          []string // what was degraded or settled, for logs and --explain
}

// Merge combines handler outputs, given in config order: deny beats defer
// beats ask beats allow; reasons and contexts are kept in config order; continue:false
// wins; two different rewrites of the same input are a conflict, settled by
// denying the call.
func Merge(outs []Output) Verdict {
	var v Verdict
	var reasons = map[Kind][]string{}
	var contexts, messages, stopReasons []string
	var rewriter string
	for _, o := range outs {
		if o.Decision > v.Decision {
			v.Decision = o.Decision
		}
		if o.Reason != "" {
			reasons[o.Decision] = addReason(reasons[o.Decision], o.Reason)
		}
		if o.Context != "" {
			contexts = append(contexts, o.Context)
		}
		if o.SystemMessage != "" {
			messages = append(messages, o.SystemMessage)
		}
		if o.SuppressOutput {
			v.SuppressOutput = true
		}
		if o.Env != nil {
			v.Env = mergeEnv(v.Env, o.Env)
		}
		if o.Continue != nil && !*o.Continue {
			v.Stop = true
			if o.Reason != "" {
				stopReasons = append(stopReasons, o.Reason)
			}
		}
		if o.UpdatedInput != nil && o.Decision != Deny {
			switch {
			case v.UpdatedInput == nil:
				v.UpdatedInput, rewriter = o.UpdatedInput, o.Handler
			case !sameJSON(v.UpdatedInput, o.UpdatedInput):
				reasons[Deny] = append(reasons[Deny], fmt.Sprintf(
					"hookshim: handlers %q and %q rewrote the tool input differently; refusing to guess which to run", rewriter, o.Handler))
				v.Decision = Deny
				v.Notes = append(v.Notes, "conflicting rewrites: denied")
			}
		}
	}
	v.Reason = strings.Join(reasons[v.Decision], "; ")
	if v.Decision == Deny {
		v.UpdatedInput = nil
	}
	v.Context = strings.Join(contexts, "\n\n")
	v.SystemMessage = strings.Join(messages, "\n")
	v.StopReason = strings.Join(stopReasons, "; ")
	return v
}

// addReason adds r to the reasons of one decision, each distinct reason
// once: a reason given again is not repeated, and one that differs from
// an earlier one only in the built-in policy named at its end (policy's
// Eval ends its reasons with " (hookshim/NAME)") names that policy with
// the earlier one's: every policy that cannot read a line says the same,
// and "… (hookshim/destructive-shell, hookshim/pipe-to-shell)" is read
// once.
func addReason(reasons []string, r string) []string {
	text, by := policySuffix(r)
	for i, e := range reasons {
		if e == r {
			return reasons
		}
		if by == "" {
			continue
		}
		if t, names := policySuffix(e); t == text && names != "" {
			all := strings.Split(names, ", ")
			for _, n := range strings.Split(by, ", ") {
				if !slices.Contains(all, n) {
					all = append(all, n)
				}
			}
			reasons[i] = t + " (" + strings.Join(all, ", ") + ")"
			return reasons
		}
	}
	return append(reasons, r)
}

// policySuffix splits a reason that ends with the built-in policies that
// gave it, " (hookshim/a, hookshim/b)", into its text and those names;
// names is "" for any other reason.
func policySuffix(r string) (text, names string) {
	i := strings.LastIndex(r, " (hookshim/")
	if i < 0 || !strings.HasSuffix(r, ")") {
		return r, ""
	}
	names = r[i+2 : len(r)-1]
	for _, n := range strings.Split(names, ", ") {
		if !strings.HasPrefix(n, "hookshim/") || strings.ContainsAny(n, " ()") {
			return r, ""
		}
	}
	return r[:i], names
}

// mergeEnv is a's variables with b's set over them: config order, as the
// tool would have run the handlers' own.
func mergeEnv(a, b []byte) []byte {
	if a == nil {
		return b
	}
	type kv struct{ key, value string } // both as JSON
	var vars []kv
	add := func(k, v gjson.Result) bool {
		for i := range vars {
			if gjson.Parse(vars[i].key).Str == k.Str {
				vars[i].value = v.Raw
				return true
			}
		}
		vars = append(vars, kv{k.Raw, v.Raw})
		return true
	}
	gjson.ParseBytes(a).ForEach(add)
	gjson.ParseBytes(b).ForEach(add)
	var sb strings.Builder
	sb.WriteByte('{')
	for i, v := range vars {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(v.key + ":" + v.value)
	}
	sb.WriteByte('}')
	return []byte(sb.String())
}

// sameJSON compares two JSON documents by meaning, not by spelling.
func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	return canonical(gjson.ParseBytes(a)) == canonical(gjson.ParseBytes(b))
}

func canonical(r gjson.Result) string {
	switch {
	case r.IsObject():
		m := r.Map()
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var sb strings.Builder
		sb.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(strconv.Quote(k)) // quoted: a key holding ":" or "," must not read as two members
			sb.WriteByte(':')
			sb.WriteString(canonical(m[k]))
		}
		sb.WriteByte('}')
		return sb.String()
	case r.IsArray():
		var sb strings.Builder
		sb.WriteByte('[')
		for i, e := range r.Array() {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(canonical(e))
		}
		sb.WriteByte(']')
		return sb.String()
	case r.Type == gjson.String:
		return strconv.Quote(r.Str)
	case r.Type == gjson.Number:
		return r.Raw
	}
	return r.Raw
}
