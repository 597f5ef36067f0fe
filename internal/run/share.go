package run

import (
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Marshal writes what the handlers answered (not how one tool was told), so
// that a duplicate call for another native event can encode the same
// answers in its own dialect.
func Marshal(results []Result) []byte {
	b := []byte{'['}
	for i, r := range results {
		if i > 0 {
			b = append(b, ',')
		}
		o := &wire.Object{}
		o.Str("handler", r.Hook.Name)
		o.Str("decision", r.Output.Decision.String())
		o.Str("reason", r.Output.Reason)
		if r.Output.Continue != nil {
			o.Bool("continue", *r.Output.Continue)
		}
		o.Str("context", r.Output.Context)
		if r.Output.UpdatedInput != nil {
			o.Raw("updated_input", r.Output.UpdatedInput)
		}
		o.Bool("suppress_output", r.Output.SuppressOutput)
		o.Str("system_message", r.Output.SystemMessage)
		if r.Output.Env != nil {
			o.Raw("env", r.Output.Env)
		}
		if r.Err != nil {
			e, ok := r.Err.(*Error)
			if !ok {
				e = failed(r.Err.Error(), "")
			}
			o.Str("error", e.Msg)
			if e.Kind != Failed {
				o.Raw("error_kind", []byte{'0' + byte(e.Kind)})
			}
			if e.Hint != "" {
				o.Str("hint", e.Hint)
			}
		}
		o.Bool("async", r.Async)
		b = append(b, o.Bytes()...)
	}
	return append(b, ']')
}

// Unmarshal rebuilds results for hooks (the same hooks, in the same order,
// as the call that ran them: they are part of the duplicate's key).
func Unmarshal(data []byte, hooks []*config.Hook) ([]Result, bool) {
	arr := gjson.ParseBytes(data).Array()
	if len(arr) != len(hooks) {
		return nil, false
	}
	out := make([]Result, len(hooks))
	for i, r := range arr {
		res := Result{Hook: hooks[i], Async: r.Get("async").Bool()}
		kind, _ := decision.ParseKind(r.Get("decision").Str)
		res.Output = decision.Output{
			Handler:        hooks[i].Name,
			Decision:       kind,
			Reason:         r.Get("reason").Str,
			Context:        r.Get("context").Str,
			SuppressOutput: r.Get("suppress_output").Bool(),
			SystemMessage:  r.Get("system_message").Str,
		}
		if c := r.Get("continue"); c.Exists() {
			v := c.Bool()
			res.Output.Continue = &v
		}
		if u := r.Get("updated_input"); u.IsObject() {
			res.Output.UpdatedInput = []byte(u.Raw)
		}
		if e := r.Get("env"); e.IsObject() {
			res.Output.Env = []byte(e.Raw)
		}
		if e := r.Get("error"); e.Exists() {
			res.Err = &Error{Kind: Kind(r.Get("error_kind").Int()), Msg: e.Str, Hint: r.Get("hint").Str}
		}
		out[i] = res
	}
	return out, true
}
