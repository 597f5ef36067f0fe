package run

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
)

// eval answers for a handler that runs no process of its own. A panic in
// the evaluation is that handler's failure, not the call's: the tool still
// gets hookshim's answer.
func (r *Runner) eval(ctx context.Context, j Job, res Result, limit time.Duration) Result {
	h := j.Hook
	start := time.Now()
	type answer struct {
		out decision.Output
		err error
	}
	done := make(chan answer, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- answer{err: fmt.Errorf("failed: %v", p)}
			}
		}()
		out, err := j.Eval(ctx)
		done <- answer{out, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-ctx.Done():
		// Eval should have returned by now; its answer, late, is not
		// read, unless it came at the deadline (select picks either).
		select {
		case a = <-done:
		default:
			a.err = ctx.Err()
		}
	}
	res.Duration = time.Since(start)
	switch {
	case a.err == nil:
		a.out.Handler = h.Name
		res.Output = a.out
		res.Exit = 0
	case ctx.Err() == context.DeadlineExceeded:
		res.TimedOut = true
		if h.Blocking && h.TimeoutAction == "block" {
			res.Output = decision.Output{Handler: h.Name, Decision: decision.Deny,
				Reason: fmt.Sprintf("%s timed out after %s", h.Name, h.Timeout)}
			return res
		}
		res.Err = timedOut(h, limit)
	case ctx.Err() != nil:
		res.Err = &Error{Kind: Stopped, Msg: fmt.Sprintf("stopped: %v", context.Cause(ctx))}
	default:
		var e *Error
		if errors.As(a.err, &e) {
			res.Err = e
		} else {
			res.Err = failed(a.err.Error(), "")
		}
	}
	return res
}
