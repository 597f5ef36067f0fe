package pipeline

import (
	"fmt"
	"slices"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/respond"
)

// answerCalls answers a payload that carries several tool calls (VS Code's
// Agent Host toolCalls[]): each call is judged as a call of its own — the
// configs in force, the handlers that match it, their merged answer — and
// one answer speaks for all: the most restrictive decision wins (deny >
// ask > allow > no opinion), with the reason of each call that has it. A
// call that cannot be read is unsure (ask) wherever a handler would have
// judged it; so are calls past the bound or the deadline. What the one
// answer cannot say for one call (a rewrite, a stop) is degraded when that
// call is judged, with a note (provider.CallsSpec).
func (c *call) answerCalls(raw []byte) respond.Answer {
	spec := c.pr.CallsSpec(c.spec)
	calls := c.ev.Calls
	if len(calls) == 0 {
		c.note(fmt.Sprintf("%s lists no tool call: nothing to judge", c.pr.Calls.List))
		return respond.NoOpinion(c.pr, spec)
	}
	deadline := c.deadline()
	var outs []decision.Output
	var messages, notes []string
	inForce := false // some config is in force: unjudged calls are unsure
	unjudged := ""   // why some calls were not judged
	for i, ev := range calls {
		if i == provider.MaxCalls {
			// normalize read one more than the bound: there are more.
			unjudged = fmt.Sprintf("hookshim judges at most %d tool calls of one hook call and this one has more; check the rest by hand", provider.MaxCalls)
			break
		}
		if i > 0 && !time.Now().Before(deadline) {
			unjudged = fmt.Sprintf("the deadline passed after %d of the %d tool calls of this hook call; hookshim did not judge the rest: check them by hand", i, len(calls))
			break
		}
		sub := &call{opts: c.opts, getenv: c.getenv, pr: c.pr, spec: spec, ev: ev, part: i + 1,
			rec: Record{Started: c.rec.Started, ID: newID(), Detection: c.rec.Detection, Native: c.rec.Native, Canonical: c.rec.Canonical, Event: ev}}
		sub.judge(raw)
		c.adopt(&sub.rec, i == 0)
		inForce = inForce || len(sub.rec.Configs) > 0
		who := callName(i, ev.Tool)
		v := sub.rec.Verdict
		if v == nil {
			// No handler answered; the notice of a config that runs its
			// allowed version (or none) is still due, as for one call.
			var notice decision.Verdict
			if sub.tellUser(&notice); notice.SystemMessage != "" {
				v = &notice
			}
		}
		if v != nil {
			for _, n := range v.Notes {
				notes = append(notes, who+": "+n)
			}
			o := decision.Output{Handler: who, Decision: v.Decision, Context: v.Context,
				SuppressOutput: v.SuppressOutput, Env: v.Env}
			if v.Reason != "" {
				o.Reason = who + ": " + v.Reason
			}
			if v.SystemMessage != "" && !slices.Contains(messages, v.SystemMessage) {
				// The same notice (a config that runs its allowed version)
				// comes with every call: once is enough.
				messages = append(messages, v.SystemMessage)
				o.SystemMessage = v.SystemMessage
			}
			outs = append(outs, o)
		}
		if ev.Tool.Unread != "" && len(sub.rec.Matched) > 0 {
			outs = append(outs, decision.Output{Handler: who, Decision: decision.Ask,
				Reason: fmt.Sprintf("hookshim could not read %s (%s), so its policies cannot judge it; check it by hand", who, ev.Tool.Unread)})
		}
	}
	if unjudged != "" {
		c.problem(unjudged)
		if inForce {
			outs = append(outs, decision.Output{Handler: "hookshim", Decision: decision.Ask, Reason: unjudged})
		}
	}
	if len(outs) == 0 {
		return respond.NoOpinion(c.pr, spec)
	}
	v := decision.Merge(outs)
	v.Notes = append(notes, v.Notes...)
	respond.Finish(spec, &v)
	if len(calls) > 1 {
		v.Notes = append(v.Notes, fmt.Sprintf("%d tool calls in one hook call: one answer for all, the most restrictive", len(calls)))
	}
	c.rec.Verdict = &v
	return respond.Encode(c.pr, spec, v)
}

// adopt takes what the judging of one call recorded into the call's
// record: the configs and hooks once (every call finds the same), the
// handlers, results and problems of each.
func (c *call) adopt(sub *Record, first bool) {
	if first {
		c.rec.Configs, c.rec.NoConfig, c.rec.Hooks, c.rec.Trust = sub.Configs, sub.NoConfig, sub.Hooks, sub.Trust
		c.rec.Call, c.rec.ReusedFrom = sub.Call, sub.ReusedFrom
	}
	if c.rec.Call == "" {
		c.rec.Call = sub.Call
	}
	c.rec.Matched = appendMissing(c.rec.Matched, sub.Matched)
	c.rec.Redact = appendMissing(c.rec.Redact, sub.Redact)
	c.rec.Results = append(c.rec.Results, sub.Results...)
	c.rec.Problems = appendMissing(c.rec.Problems, sub.Problems)
	c.rec.Notes = appendMissing(c.rec.Notes, sub.Notes)
}

// appendMissing appends to dst each of src that dst does not hold yet:
// every call of an envelope finds the same configs, and their matches,
// problems and notes come once.
func appendMissing[T comparable](dst, src []T) []T {
	for _, x := range src {
		if !slices.Contains(dst, x) {
			dst = append(dst, x)
		}
	}
	return dst
}

// callName names call i of a payload for a reason the model and the user
// read: its place and its tool.
func callName(i int, t *event.Tool) string {
	if t.Native == "" {
		return fmt.Sprintf("tool call %d", i+1)
	}
	return fmt.Sprintf("tool call %d (%s)", i+1, t.Native)
}

// normalize is the payload's canonical event for this call: the one of
// its tool calls it judges, when the payload carries several.
func (c *call) normalize(p provider.Payload) *event.Event {
	ev := normalize.Event(c.pr, c.spec, p)
	if c.part > 0 && c.part <= len(ev.Calls) {
		return ev.Calls[c.part-1]
	}
	return ev
}
