package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/remotecall"
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
			return failJob(h, &run.Error{Kind: run.NotStarted, Msg: "model endpoint: " + err.Error(),
				Hint: `fix "base_url" or the *_BASE_URL variable (docs/handlers.md)`})
		}
		rc.URL, rc.API, rc.Model, rc.Prompt = ep.URL, ep.API, ep.Model, r.Prompt
		rc.Key = c.getenv(ep.KeyEnv)
	}
	helper, err := config.Helper(nil)
	if err != nil {
		return failJob(h, &run.Error{Kind: run.NotStarted, Msg: remotecall.Program + ", which sends " + h.Type + " handlers, is neither next to hookshim nor in PATH", Hint: config.HelperFix})
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
			return out, nil
		},
	}
}

// degradePrompt is a prompt handler with no model to ask, as its
// llm_evaluated strategy says: left out (exclude, the default: a note in
// the log; allow and doctor warn), a warning on every call (warn), or a
// denial (block).
func (c *call) degradePrompt(h *config.Hook) run.Job {
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
// value from hookshim's environment. A variable that is not set becomes
// empty, never the literal text (which would send "$TOKEN" as a token),
// and the call warns.
func (c *call) expand(h *config.Hook, name, value string) string {
	return os.Expand(value, func(v string) string {
		s := c.getenv(v)
		if s == "" {
			c.problem(fmt.Sprintf("handler %q: header %s: $%s is not set; sent empty", h.Name, name, v))
		}
		return s
	})
}
