package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/remotecall"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/hookshim/hookshim/internal/shellquote"
)

// remoteJob is an http or prompt handler's job: hookshim-remote started
// as a command handler (run gives it the handler's deadline, kills it on
// timeout and caps its output), the envelope on its stdin, the request,
// resolved here, in its environment. Headers are expanded here, from
// hookshim's environment, so that a variable that is not set is a
// warning of this call.
func (c *call) remoteJob(h *config.Hook, envelope [][]byte) run.Job {
	r := h.Remote
	rc := remotecall.Call{Kind: h.Type, Hook: h.Name, URL: r.URL, Wrap: r.Wrap, Result: r.Result, AllowHTTP: r.AllowHTTP}
	for _, kv := range r.Header {
		rc.Header = append(rc.Header, [2]string{kv[0], c.expand(h, kv[0], kv[1])})
	}
	if h.Type == "prompt" {
		ep, err := r.Endpoint(c.getenv)
		if errors.Is(err, config.ErrNoEndpoint) {
			return c.degradePrompt(h)
		}
		if err != nil {
			return c.cannotRun(h, &run.Error{Kind: run.NotStarted, Msg: "model endpoint: " + err.Error(),
				Hint: `fix "base_url" or the *_BASE_URL variable (docs/handlers.md)`})
		}
		rc.URL, rc.API, rc.Model, rc.Prompt = ep.URL, ep.API, ep.Model, r.Prompt
		rc.Key = c.getenv(ep.KeyEnv)
		rc.Rewrite = r.AllowRewrite
	}
	helper, err := config.Helper(nil)
	if err != nil {
		return c.cannotRun(h, &run.Error{Kind: run.NotStarted, Msg: remotecall.Program + ", which sends " + h.Type + " handlers, is neither next to hookshim nor in PATH", Hint: config.HelperFix})
	}
	hc := *h
	hc.Type, hc.Command, hc.Env = "command", shellquote.Word(helper), nil
	return run.Job{
		Hook:  &hc,
		Input: envelope,
		Env:   []string{remotecall.Env + "=" + string(rc.Encode())},
		Read: func(exit int, stdout []byte, stderr string) (decision.Output, error) {
			if exit != 0 {
				msg, _, _ := strings.Cut(stderr, "\n")
				if msg == "" {
					msg = fmt.Sprintf("%s exited %d", remotecall.Program, exit)
				}
				return decision.Output{}, errors.New(msg)
			}
			out, err := decision.Parse(h.Name, stdout)
			if err != nil {
				return out, fmt.Errorf("the answer of %s is not a handler's: %v", rc.URL, err)
			}
			if h.Type == "prompt" {
				return judged(h, out)
			}
			return out, nil
		},
	}
}

// judged bounds what a prompt handler's answer can do, whatever the model
// was talked into. Its allow means "no objection": it never approves the
// call over the tool's own permission prompt (Claude Code's
// permissionDecision: allow) unless the handler says "allow_approve". A
// rewrite needs "allow_rewrite" (hookshim-remote refuses one without it;
// checked again here, on this side of the process boundary); without
// "allow_approve" the user is asked to confirm the rewritten call, which
// the call's other hooks check again before it is used (recheck).
func judged(h *config.Hook, out decision.Output) (decision.Output, error) {
	r := h.Remote
	if out.UpdatedInput != nil && !r.AllowRewrite {
		return decision.Output{}, errors.New(`the model rewrote the tool's input, which this handler may not ("allow_rewrite" is not set)`)
	}
	if out.Continue != nil || out.SuppressOutput || out.SystemMessage != "" {
		return decision.Output{}, errors.New("the model's answer holds more than decision, reason, context and updated_input")
	}
	if r.AllowApprove {
		return out, nil
	}
	switch {
	case out.UpdatedInput != nil && out.Decision != decision.Deny:
		out.Decision = decision.Ask
		if out.Reason == "" {
			out.Reason = h.Name + " rewrote the call; confirm the rewritten call"
		}
	case out.Decision == decision.Allow:
		out.Decision = decision.None
	}
	return out, nil
}

// cannotRun is an http or prompt handler that cannot be sent at all: no
// hookshim-remote, or no valid model endpoint. That is the same on every
// call, so a handler meant to block is never waved through by it: under
// on_error: deny (its own or its config's) it denies,
// as any failure does; a "blocking" one without that asks the user, with
// the reason and the fix, on every call, rather than answer no opinion. A
// handler that is neither fails open, with its warning.
func (c *call) cannotRun(h *config.Hook, err *run.Error) run.Job {
	onError := h.OnError
	if onError == "" {
		onError = c.onError
	}
	if onError == "deny" || !h.Blocking {
		return failJob(h, err)
	}
	c.problem(fmt.Sprintf("handler %q could not start: %s (hint: %s); the call is put to the user", h.Name, err.Msg, err.Hint))
	out := decision.Output{Decision: decision.Ask,
		Reason: fmt.Sprintf("hookshim: the blocking handler %s cannot run: %s; fix: %s", h.Name, err.Msg, err.Hint)}
	return run.Job{Hook: h, Eval: func(context.Context) (decision.Output, error) { return out, nil }}
}

// degradePrompt is a prompt handler with no model to ask, as its
// llm_evaluated strategy says: left out (exclude, the default: a note in
// the log; allow and doctor warn), a warning on every call (warn), or a
// denial (block).
//
// A blocking or fail-closed handler that states no strategy is one that
// cannot run: it is never left out in silence (see cannotRun).
func (c *call) degradePrompt(h *config.Hook) run.Job {
	if h.Degradation["llm_evaluated"] == "" && (h.Blocking || h.OnError == "deny" || h.OnError == "" && c.onError == "deny") {
		return c.cannotRun(h, &run.Error{Kind: run.NotStarted,
			Msg:  fmt.Sprintf("prompt handler %q has no model endpoint", h.Name),
			Hint: `set ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL, or "base_url"; or say what to do without one with "degradation": {"llm_evaluated": "exclude"}`})
	}
	msg := fmt.Sprintf("prompt handler %q has no model endpoint (set ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL, or \"base_url\"; degradation llm_evaluated: %s)", h.Name, config.Degradation(h))
	var out decision.Output
	switch config.Degradation(h) {
	case "block":
		out = decision.Output{Decision: decision.Deny, Reason: msg}
	case "warn":
		c.problem(msg + ": not run")
	default:
		c.note(msg + ": left out")
	}
	return run.Job{Hook: h, Eval: func(context.Context) (decision.Output, error) { return out, nil }}
}

// failJob is a job that fails as err says, without starting anything.
func failJob(h *config.Hook, err error) run.Job {
	return run.Job{Hook: h, Eval: func(context.Context) (decision.Output, error) { return decision.Output{}, err }}
}

// expand replaces ${VAR} and $VAR in a header value with the variable's
// value from hookshim's environment, for the variables the handler lists
// in "allowed_env_vars" only (Claude Code's rule for its http hooks'
// allowedEnvVars): a config that can name a server must not also be able
// to send it $AWS_SECRET_ACCESS_KEY without saying so. Any other variable,
// and one that is not set, becomes empty, never the literal text (which
// would send "$TOKEN" as a token), and the call warns.
func (c *call) expand(h *config.Hook, name, value string) string {
	return os.Expand(value, func(v string) string {
		if !h.Remote.Allows(v) {
			c.problem(fmt.Sprintf(`handler %q: header %s: $%s is not in "allowed_env_vars"; sent empty`, h.Name, name, v))
			return ""
		}
		s := c.getenv(v)
		if s == "" {
			c.problem(fmt.Sprintf("handler %q: header %s: $%s is not set; sent empty", h.Name, name, v))
		}
		return s
	})
}

// judgeRewrote reports whether the answer of hooks[i], results[i], is a
// prompt handler's that rewrote the tool's input. (The result's own Hook
// is the hookshim-remote command that sent it.)
func judgeRewrote(hooks []*config.Hook, results []run.Result, i int) bool {
	return hooks[i].Type == "prompt" && results[i].Err == nil && results[i].Output.UpdatedInput != nil
}

// recheck puts a call whose input a model rewrote (a prompt handler with
// "allow_rewrite") through the call's other hooks again, on the rewritten
// input, before the rewrite is used: a model talked into rewriting
// "git status" as "git push --force" meets the same policies as the agent
// asking for it. The hooks that rewrote are not asked again. Their answers
// and the new ones are merged as one call's: a deny or an ask of either
// round wins, and a hook that would rewrite the rewrite is a conflict,
// which denies. A rewrite that cannot be read back as the tool would
// send it is not used: the call is denied.
func (c *call) recheck(r *run.Runner, hooks []*config.Hook, first []run.Result, v decision.Verdict, onError string) decision.Verdict {
	var again []*config.Hook
	for i, h := range hooks {
		if !judgeRewrote(hooks, first, i) {
			again = append(again, h)
		}
	}
	if len(again) == len(hooks) {
		return v // no model rewrote it
	}
	raw, err := c.pr.PutInput(c.ev.Raw, v.UpdatedInput)
	var ev *event.Event
	if err == nil {
		ev = normalize.Event(c.pr, c.spec, provider.NewPayload(raw, c.getenv))
		if ev.Tool == nil || !sameJSON(ev.Tool.Input, v.UpdatedInput) {
			err = errors.New("it does not read back as the tool's input")
		}
	}
	if err != nil {
		c.problem("the rewritten tool input cannot be checked by the policies: " + err.Error())
		return decision.Verdict{Decision: decision.Deny, Notes: v.Notes,
			Reason: "hookshim: a prompt handler rewrote the call, and the rewrite cannot be checked by the policies"}
	}
	saved := c.ev
	c.ev = ev
	second := c.runJobs(r, again)
	c.ev = saved
	for _, res := range second {
		if res.Err != nil {
			c.note(fmt.Sprintf("rewritten call: %s failed: %v", res.Hook.Name, res.Err))
		} else if res.Output.Decision != decision.None {
			c.note(fmt.Sprintf("rewritten call: %s answered %s", res.Hook.Name, res.Output.Decision))
		}
	}
	c.note(fmt.Sprintf("a prompt handler rewrote the tool's input: %d other hook(s) checked the rewritten call", len(again)))
	return respond.Verdict(c.spec, append(slices.Clone(first), second...), onError)
}

// sameJSON reports whether two JSON documents hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
