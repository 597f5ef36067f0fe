package pipeline

import (
	"context"
	"sync"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/rule"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// ruleEval answers for a rule handler: its expression, evaluated on the
// event, and the answer the config gives when it is true. The rules of one
// call share one environment, built by the first of them to run.
func ruleEval(h *config.Hook, env func() *rule.Env) func(context.Context) (decision.Output, error) {
	return func(context.Context) (decision.Output, error) {
		e := env()
		ok, err := h.Rule.If.Match(e)
		if err != nil || !ok {
			return decision.Output{}, err
		}
		r := h.Rule
		out := decision.Output{Reason: r.Reason, Context: r.Context}
		if k, ok := decision.ParseKind(r.Decision); ok {
			out.Decision = k
			if out.Reason == "" && k != decision.Allow {
				out.Reason = "denied by rule " + h.Name
				if k == decision.Ask {
					out.Reason = "rule " + h.Name + " asks for confirmation"
				}
			}
		}
		if r.UpdatedInput != nil {
			out.UpdatedInput = mergeInput(e, r.UpdatedInput)
		}
		return out, nil
	}
}

// ruleEnv builds the rules' environment of this call once.
func (c *call) ruleEnv() func() *rule.Env {
	return sync.OnceValue(func() *rule.Env { return rule.NewEnv(c.ev) })
}

// mergeInput is the tool's input with each key of the rewrite set to its
// value: keys the rewrite does not name keep theirs, since a tool replaces
// its whole input with the one it is given back.
func mergeInput(e *rule.Env, rewrite []byte) []byte {
	in := []byte("{}")
	if e.RawInput != nil && gjson.ValidBytes(e.RawInput) && gjson.ParseBytes(e.RawInput).IsObject() {
		in = append([]byte(nil), e.RawInput...)
	}
	gjson.ParseBytes(rewrite).ForEach(func(k, v gjson.Result) bool {
		if next, err := sjson.SetRawBytes(in, escapeKey(k.Str), []byte(v.Raw)); err == nil {
			in = next
		}
		return true
	})
	return in
}

// escapeKey makes a key literal for sjson, whose paths give '.', '*', '?'
// and others a meaning.
func escapeKey(k string) string {
	var b []byte
	for i := 0; i < len(k); i++ {
		switch k[i] {
		case '.', '*', '?', '|', '#', '@', '\\', '!', '=', '<', '>', '%', ':':
			b = append(b, '\\')
		}
		b = append(b, k[i])
	}
	return string(b)
}
