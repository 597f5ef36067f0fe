// Package respond turns handler results into one verdict and the verdict
// into the calling tool's answer.
//
// Each handler's answer is first degraded to what the native event can
// express (the Hook Interchange degradation strategies, per handler), then
// the answers are merged (deny > defer > ask > allow), then what is left is encoded
// by the provider. Every degradation is recorded in the verdict's notes.
package respond

import (
	"fmt"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/run"
)

// Degradation keys a handler may set (Hook Interchange capability names,
// plus "ask" for the decision some tools cannot put to the user).
const (
	InputRewrite     = "input_rewrite"
	StructuredOutput = "structured_output"
	Ask              = "ask"
)

// defaultStrategy is the strategy used when a handler sets none: a rewrite
// that cannot be applied blocks (running the unsanitized input would be
// worse), an ask the tool cannot put to the user is a denial (as the Hook
// Interchange spec says for headless tools), context that cannot reach the
// model is shown to the user where possible.
func defaultStrategy(key string) string {
	switch key {
	case InputRewrite, Ask:
		return "block"
	case StructuredOutput:
		return "warn"
	}
	return ""
}

// Verdict merges the results of the handlers run for an event. onError is
// the config's failure policy ("allow" or "deny") for handlers that set none.
func Verdict(spec *provider.Spec, results []run.Result, onError string) decision.Verdict {
	var outs []decision.Output
	var notes []string
	for _, r := range results {
		if r.Async {
			continue
		}
		if r.Err != nil {
			policy := r.Hook.OnError
			if policy == "" {
				policy = onError
			}
			if policy != "deny" {
				notes = append(notes, fmt.Sprintf("%s failed, ignored (fail-open): %v", r.Hook.Name, r.Err))
				continue
			}
			notes = append(notes, fmt.Sprintf("%s failed, denied (on_error: deny): %v", r.Hook.Name, r.Err))
			outs = append(outs, decision.Output{Handler: r.Hook.Name, Decision: decision.Deny,
				Reason: fmt.Sprintf("hookshim: handler %s failed and on_error is deny: %v", r.Hook.Name, r.Err)})
			continue
		}
		o, keep, n := Degrade(spec, r.Output, r.Hook.Degradation)
		notes = append(notes, n...)
		if keep {
			outs = append(outs, o)
		}
	}
	v := decision.Merge(outs)
	v.Notes = append(notes, v.Notes...)
	Finish(spec, &v)
	return v
}

// Degrade fits one handler's answer to what the event can express. keep is
// false when the strategy says to exclude the handler's answer.
func Degrade(spec *provider.Spec, o decision.Output, strategies map[string]string) (out decision.Output, keep bool, notes []string) {
	can := provider.Caps(0)
	if spec != nil {
		can = spec.Can
	}
	strategy := func(key string) string {
		if s, ok := strategies[key]; ok {
			return s
		}
		if key == StructuredOutput {
			if s, ok := strategies["context"]; ok {
				return s
			}
		}
		return defaultStrategy(key)
	}
	if o.Decision == decision.Deny || o.Decision == decision.Defer || o.Decision == decision.Ask {
		if o.Reason == "" {
			o.Reason = "blocked by " + o.Handler
		}
	}
	if o.Decision == decision.Defer && !can.Has(provider.CanDefer) {
		// Only Claude Code holds a call for the program that drives the
		// session; elsewhere the nearest answer leaves the call to a person,
		// and where no person can be asked the ask below becomes a denial.
		o.Decision = decision.Ask
		notes = append(notes, o.Handler+": defer cannot be answered here; asked instead")
	}
	if o.Decision == decision.Ask && !can.Has(provider.CanAsk) && continues(spec) {
		// On a stop event a denial means "keep going": turning an ask into
		// one would force the agent on, the opposite of asking.
		o.Decision = decision.None
		notes = append(notes, o.Handler+": ask has no meaning when the agent stops; treated as no opinion")
	}
	if o.Decision == decision.Ask && !can.Has(provider.CanAsk) {
		switch strategy(Ask) {
		case "exclude":
			return o, false, []string{o.Handler + ": ask cannot be put to the user here; answer excluded"}
		case "warn":
			o.Decision = decision.None
			notes = append(notes, o.Handler+": ask cannot be put to the user here; treated as no opinion (degradation ask: warn)")
		default:
			o.Decision = decision.Deny
			notes = append(notes, o.Handler+": ask cannot be put to the user here; denied instead")
		}
	}
	if o.UpdatedInput != nil && o.Decision != decision.Deny && !can.Has(provider.CanRewrite) {
		switch strategy(InputRewrite) {
		case "exclude":
			return o, false, []string{o.Handler + ": input rewrite not possible here; answer excluded"}
		case "warn":
			notes = append(notes, o.Handler+": input rewrite not possible here; original input kept (degradation input_rewrite: warn)")
		default:
			o.Decision = decision.Deny
			o.Reason = fmt.Sprintf("hookshim: this tool cannot rewrite the call's input, so the call is blocked; the policy's version is %s", o.UpdatedInput)
			notes = append(notes, o.Handler+": input rewrite not possible here; blocked, with the rewritten input in the reason")
		}
		o.UpdatedInput = nil
	}
	if o.Context != "" && !can.Has(provider.CanContext) {
		switch strategy(StructuredOutput) {
		case "exclude":
			return o, false, []string{o.Handler + ": context cannot reach the model here; answer excluded"}
		case "block":
			o.Decision = decision.Deny
			if o.Reason == "" {
				o.Reason = o.Context
			}
			notes = append(notes, o.Handler+": context cannot reach the model here; blocked (degradation structured_output: block)")
		default:
			if can.Has(provider.CanMessage) {
				o.SystemMessage = joinLines(o.SystemMessage, o.Context)
				notes = append(notes, o.Handler+": context cannot reach the model here; shown to the user instead")
			} else {
				notes = append(notes, o.Handler+": context cannot reach the model here; dropped")
			}
		}
		o.Context = ""
	}
	return o, true, notes
}

// Finish fits the merged verdict to the event: a stop or a denial the
// event cannot express is carried by whatever channel it has.
func Finish(spec *provider.Spec, v *decision.Verdict) {
	can := provider.Caps(0)
	if spec != nil {
		can = spec.Can
	}
	if v.Stop && !can.Has(provider.CanStop) {
		v.Stop = false
		if can.Has(provider.CanDeny) && v.Decision != decision.Deny && !continues(spec) {
			v.Decision = decision.Deny
			v.Reason = firstNonEmpty(v.StopReason, "stopped by policy")
			v.Notes = append(v.Notes, "continue:false cannot stop the agent here; the action is denied instead")
		} else {
			v.Notes = append(v.Notes, "continue:false cannot be expressed here; dropped")
		}
	}
	if v.Decision == decision.Deny && !can.Has(provider.CanDeny) {
		msg := "hookshim: policy would block this, but the tool cannot block here: " + v.Reason
		switch {
		case can.Has(provider.CanContext):
			v.Context = joinLines(v.Context, msg)
			v.Notes = append(v.Notes, "deny cannot block here; the reason is given to the model as context")
		case can.Has(provider.CanMessage):
			v.SystemMessage = joinLines(v.SystemMessage, msg)
			v.Notes = append(v.Notes, "deny cannot block here; the reason is shown to the user")
		default:
			v.Notes = append(v.Notes, "deny cannot block here and the event has no channel for the reason; logged only")
		}
		v.Decision = decision.None
		v.Reason = ""
	}
	if v.Decision == decision.Allow && !can.Has(provider.CanAllow) && v.UpdatedInput == nil {
		// No explicit approval here: the same as no opinion.
		v.Decision = decision.None
	}
	if v.SystemMessage != "" && !can.Has(provider.CanMessage) {
		v.Notes = append(v.Notes, "system_message cannot be shown here; dropped")
		v.SystemMessage = ""
	}
	if v.SuppressOutput && !can.Has(provider.CanSuppress) {
		v.SuppressOutput = false
	}
	if v.UpdatedInput != nil && !can.Has(provider.CanRewrite) {
		v.UpdatedInput = nil
	}
}

// continues reports whether a denial on this event makes the agent go on
// (a stop hook that "blocks" the stop) rather than stop something.
func continues(spec *provider.Spec) bool {
	return spec != nil && (spec.Canonical == event.AgentStop || spec.Canonical == event.SubagentStop)
}

// Answer is the native answer to the tool: stdout, stderr and exit code.
// Each provider's encoder builds one, so the type is declared beside them.
type Answer = provider.Answer

// Encode writes the verdict in the provider's dialect.
func Encode(pr *provider.Provider, spec *provider.Spec, v decision.Verdict) Answer {
	return pr.Encode(spec, &v)
}

// NoOpinion is the provider's neutral answer: what hookshim says when it
// has nothing to say, or when it failed and the user did not ask for
// fail-closed.
func NoOpinion(pr *provider.Provider, spec *provider.Spec) Answer {
	return pr.Encode(spec, &decision.Verdict{})
}

func joinLines(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
