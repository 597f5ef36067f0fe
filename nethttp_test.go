package hookshim_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHookshimLoadsNoHTTP: hookshim itself never links net/http or
// crypto/tls, whose package initialisation every call would pay (it is
// one fresh process per call); http and prompt handlers are sent by
// hookshim-remote, which does.
func TestHookshimLoadsNoHTTP(t *testing.T) {
	deps := linked(t, "./cmd/hookshim")
	for _, banned := range []string{"net/http", "crypto/tls", "crypto/x509", "github.com/hookshim/hookshim/internal/remote"} {
		require.Falsef(t, deps[banned], "hookshim links %s", banned)
	}
	require.True(t, deps["github.com/hookshim/hookshim/internal/config"], "the walk found hookshim's packages")

	deps = linked(t, "./cmd/hookshim-remote")
	require.True(t, deps["net/http"], "hookshim-remote sends with net/http")
}
