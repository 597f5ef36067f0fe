package pipeline

import (
	"errors"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/stretchr/testify/assert"
)

// A built-in policy or rule that has not answered by the call's deadline
// times out as a handler does; one that answers in time is read.
func TestEvalInlineDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := func() (decision.Output, error) {
		<-release
		return decision.Output{Decision: decision.Allow}, nil
	}
	h := &config.Hook{Name: "p", Type: "use", TimeoutAction: "warn"}
	res := evalInline(h, "failed: ", time.Now().Add(20*time.Millisecond), slow)
	assert.True(t, res.TimedOut)
	var e *run.Error
	if assert.True(t, errors.As(res.Err, &e)) {
		assert.Equal(t, run.TimedOut, e.Kind)
	}
	assert.True(t, res.Output.Empty())

	blocking := &config.Hook{Name: "p", Type: "use", Blocking: true, TimeoutAction: "block"}
	res = evalInline(blocking, "failed: ", time.Now().Add(20*time.Millisecond), slow)
	assert.Equal(t, decision.Deny, res.Output.Decision)

	fast := func() (decision.Output, error) { return decision.Output{Decision: decision.Deny, Reason: "x"}, nil }
	res = evalInline(h, "failed: ", time.Now().Add(time.Minute), fast)
	assert.False(t, res.TimedOut)
	assert.Equal(t, decision.Deny, res.Output.Decision)
	assert.Equal(t, "p", res.Output.Handler)

	boom := func() (decision.Output, error) { panic("x") }
	res = evalInline(h, "failed: ", time.Time{}, boom)
	assert.ErrorContains(t, res.Err, "failed: x")
}
