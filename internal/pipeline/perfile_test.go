package pipeline

import (
	"errors"
	"testing"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/stretchr/testify/require"
)

// One handler's runs for the files of one call answer as one: the
// strongest decision, a failure before no opinion, every run's context.
func TestStrongestOfFiles(t *testing.T) {
	none := run.Result{Output: decision.Output{Context: "a"}}
	deny := run.Result{Output: decision.Output{Decision: decision.Deny, Reason: "secret in .env", Context: "b"}}
	failed := run.Result{Err: errors.New("exited 1")}
	stop := false
	stopped := run.Result{Output: decision.Output{Continue: &stop}}

	got := strongest(none, deny)
	require.Equal(t, decision.Deny, got.Output.Decision)
	require.Equal(t, "secret in .env", got.Output.Reason)
	require.Equal(t, "b\na", got.Output.Context)

	require.Equal(t, decision.Deny, strongest(deny, none).Output.Decision)
	require.Error(t, strongest(none, failed).Err)
	require.NoError(t, strongest(deny, failed).Err)
	require.False(t, *strongest(none, stopped).Output.Continue)
}
