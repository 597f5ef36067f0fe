package config

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/rule"
	"github.com/tidwall/gjson"
)

// Rule is a handler of type "rule": an expression over the canonical event
// (internal/rule, docs/rules.md), answered in-process. When the expression
// is true the handler answers Decision, Reason, Context and UpdatedInput;
// when it is false it has no opinion.
type Rule struct {
	If           *rule.Rule
	Decision     string // "deny", "ask", "allow", or "" for none
	Reason       string
	Context      string
	UpdatedInput []byte // a JSON object, merged key by key into the tool's input
}

// rule parses {"type": "rule", "if": …, "decision": …, "reason": …,
// "context": …, "updated_input": {…}}. The expression is compiled here, so
// that a mistake in it is a config error with its line and column, found
// by `hookshim allow` and `hookshim doctor` and on every call alike.
func (p *parser) rule(h *Hook, v gjson.Result) {
	r := &Rule{}
	var cond gjson.Result
	v.ForEach(func(k, val gjson.Result) bool {
		switch k.Str {
		case "type", "status_message":
			p.str(val, k.Str)
		case "if":
			cond = val
		case "decision":
			r.Decision = p.str(val, "decision")
			if r.Decision != "deny" && r.Decision != "ask" && r.Decision != "allow" && p.err == nil {
				p.fail(val, `"decision" must be "deny", "ask" or "allow"`)
			}
		case "reason":
			r.Reason = p.str(val, "reason")
		case "context":
			r.Context = p.str(val, "context")
		case "updated_input":
			if !val.IsObject() {
				p.fail(val, `"updated_input" must be an object of the tool's input keys and their new values`)
			}
			r.UpdatedInput = []byte(val.Raw)
		case "timeout":
			h.Timeout = p.timeout(val)
		default:
			p.fail(k, fmt.Sprintf("unknown field %q in rule handler%s (known: type, if, decision, reason, context, updated_input, timeout, status_message)", k.Str, DidYouMean(k.Str, []string{"type", "if", "decision", "reason", "context", "updated_input", "timeout", "status_message"})))
		}
		return p.err == nil
	})
	if p.err != nil {
		return
	}
	switch {
	case !cond.Exists():
		p.fail(v, `a rule handler needs "if": an expression such as "tool == 'shell' && command contains 'rm -rf /'"`)
		return
	case cond.Type != gjson.String:
		p.fail(cond, `"if" must be a string: an expression over the event (docs/rules.md)`)
		return
	case r.Decision == "" && r.Context == "" && r.UpdatedInput == nil:
		p.fail(v, `a rule handler needs "decision", "context" or "updated_input": what to answer when "if" is true`)
		return
	}
	compiled, err := rule.Compile(cond.Str)
	if err != nil {
		var re *rule.Error
		off := 0
		if errors.As(err, &re) {
			off = rawOffset(cond.Raw, re.Offset)
		}
		l, c := p.lineCol(cond.Index + off)
		p.err = &Error{Path: p.path, Line: l, Col: c, Msg: "in \"if\": " + err.Error()}
		return
	}
	r.If = compiled
	h.Type, h.Rule = "rule", r
}

// rawOffset is the byte offset, in a JSON string token as written in the
// file (quotes and escapes included), of the rune at index n of the
// decoded string: where an error inside an expression points in the file.
func rawOffset(raw string, n int) int {
	i := 1 // the opening quote
	for ; n > 0 && i < len(raw)-1; n-- {
		if raw[i] != '\\' {
			_, size := utf8.DecodeRuneInString(raw[i:])
			i += size
			continue
		}
		if i+1 < len(raw) && raw[i+1] == 'u' {
			i += 6
			// A surrogate pair is one rune written as two escapes.
			if i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' && isHighSurrogate(raw[i-4:i]) {
				i += 6
			}
			continue
		}
		i += 2
	}
	if i > len(raw) {
		i = len(raw)
	}
	return i
}

func isHighSurrogate(hex string) bool {
	return len(hex) == 4 && (hex[0] == 'd' || hex[0] == 'D') && (hex[1] >= '8' && hex[1] <= '9' || hex[1] >= 'a' && hex[1] <= 'b' || hex[1] >= 'A' && hex[1] <= 'B')
}
