package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/policy"
	"github.com/tidwall/gjson"
)

// use reads an entry that names a built-in policy in place of a handler:
//
//	{"event": "before_tool_execute", "use": "hookshim/destructive-shell", "with": {…}}
//
// The policy is compiled here, so that an unknown name or a bad parameter
// is an error with its line and column when the config is parsed (allow,
// doctor and every call), never a surprise when an event comes. "event"
// may be left out: the policy's own event is used. It returns the entry's
// event (given or default).
func (p *parser) use(h *Hook, v, use, eventAt gjson.Result) gjson.Result {
	with := v.Get("with")
	switch {
	case !use.Exists():
		p.fail(with, `"with" gives the parameters of a built-in policy: name it with "use"`)
		return eventAt
	case v.Get("handler").Exists():
		p.fail(use, `a hook has either "handler" or "use" (a built-in policy), not both`)
		return eventAt
	case use.Type != gjson.String:
		p.fail(use, `"use" must be the name of a built-in policy, such as "hookshim/destructive-shell"`)
		return eventAt
	}
	if _, ok := policy.Lookup(use.Str); !ok {
		p.fail(use, fmt.Sprintf("unknown policy %q%s (built in: %s)", use.Str, DidYouMean(use.Str, policy.Names()), strings.Join(policy.Names(), ", ")))
		return eventAt
	}
	var raw []byte
	if with.Exists() {
		raw = []byte(with.Raw)
	}
	pol, err := policy.Compile(use.Str, raw)
	if err != nil {
		var pe *policy.Error
		if errors.As(err, &pe) && pe.Offset >= 0 && with.Exists() {
			l, c := p.lineCol(with.Index + pe.Offset)
			p.err = &Error{Path: p.path, Line: l, Col: c, Msg: pe.Msg}
		} else {
			p.fail(use, err.Error())
		}
		return eventAt
	}
	info, _ := policy.Lookup(use.Str)
	if !eventAt.Exists() {
		eventAt = gjson.Parse(`"` + string(info.Events[0]) + `"`)
	} else if eventAt.Type == gjson.String {
		if bs, ok := bindings(eventAt.Str); ok {
			for _, b := range bs {
				if !slices.Contains(info.Events, b.Event) {
					p.fail(eventAt, fmt.Sprintf("%s reads %s events, not %s", use.Str, names(info.Events), b.Event))
					return eventAt
				}
			}
		}
	}
	h.Type, h.Policy = "use", pol
	return eventAt
}

func names(ns []event.Name) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = string(n)
	}
	return strings.Join(s, " and ")
}
