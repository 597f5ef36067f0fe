package run

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/stretchr/testify/require"
)

// A job with Eval runs no process: its answer, its error, its panic and
// its overrun each end as a command handler's would. Only the one that
// never answers has a short timeout.
func TestEvalJobs(t *testing.T) {
	h := &config.Hook{Name: "rule", Timeout: time.Minute}
	short := &config.Hook{Name: "rule", Timeout: 50 * time.Millisecond}
	deny := func(context.Context) (decision.Output, error) {
		return decision.Output{Decision: decision.Deny, Reason: "no"}, nil
	}
	broken := func(context.Context) (decision.Output, error) { return decision.Output{}, errors.New("bad input") }
	panics := func(context.Context) (decision.Output, error) { panic("boom") }
	slow := func(ctx context.Context) (decision.Output, error) { <-ctx.Done(); return decision.Output{}, ctx.Err() }
	res := (&Runner{}).RunJobs(context.Background(), []Job{
		{Hook: h, Eval: deny}, {Hook: h, Eval: broken}, {Hook: h, Eval: panics}, {Hook: short, Eval: slow},
	})
	require.NoError(t, res[0].Err)
	require.Equal(t, decision.Deny, res[0].Output.Decision)
	require.Equal(t, "rule", res[0].Output.Handler)
	require.ErrorContains(t, res[1].Err, "bad input")
	require.ErrorContains(t, res[2].Err, "boom")
	require.True(t, res[3].TimedOut)
	require.Error(t, res[3].Err)
}

// An async hook with Eval is answered in the call: only a process can be
// left running.
func TestEvalJobNeverAsync(t *testing.T) {
	h := &config.Hook{Name: "rule", Timeout: time.Minute, Async: true}
	res := (&Runner{}).RunJobs(context.Background(), []Job{{Hook: h, Eval: func(context.Context) (decision.Output, error) {
		return decision.Output{Context: "noted"}, nil
	}}})
	require.False(t, res[0].Async)
	require.Equal(t, "noted", res[0].Output.Context)
}

// Read replaces the OpenHook contract for every exit code the handler
// chose, and the job's Env reaches the process.
func TestReadAndEnv(t *testing.T) {
	h := hook(t, `echo "$DIALECT_VAR" >&2; exit 3`)
	h.Blocking = false
	var got struct {
		exit   int
		stderr string
	}
	res := (&Runner{}).RunJobs(context.Background(), []Job{{
		Hook: h, Input: pieces(100), Env: []string{"DIALECT_VAR=from-job"},
		Read: func(exit int, stdout []byte, stderr string) (decision.Output, error) {
			got.exit, got.stderr = exit, stderr
			return decision.Output{Decision: decision.Deny, Reason: strings.ToUpper(stderr)}, nil
		},
	}})
	require.NoError(t, res[0].Err)
	require.Equal(t, 3, got.exit)
	require.Equal(t, "from-job", got.stderr)
	require.Equal(t, "FROM-JOB", res[0].Output.Reason)
	require.Equal(t, "h", res[0].Output.Handler)
}
