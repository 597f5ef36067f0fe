package pipeline

import (
	"context"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/run"
)

// jobs says, for each matched handler, what it is given and how its answer
// is read: the one place where handler types and dialects meet the call.
// The envelope is built once, and only when a handler reads it.
func (c *call) jobs(hooks []*config.Hook) []run.Job {
	jobs := make([]run.Job, len(hooks))
	var envelope [][]byte
	for i, h := range hooks {
		j := run.Job{Hook: h}
		switch h.Type {
		case "use": // a built-in policy, evaluated here on the canonical event
			j.Eval = func(context.Context) (decision.Output, error) { return h.Policy.Eval(c.ev), nil }
		default: // "command", in the OpenHook envelope
			if envelope == nil {
				envelope = normalize.EnvelopeParts(c.ev, c.rec.Call, time.Now(), c.version())
			}
			j.Input = envelope
		}
		jobs[i] = j
	}
	return jobs
}
