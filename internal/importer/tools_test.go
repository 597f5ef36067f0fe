package importer

import (
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// Tools are exactly the tools Check lets through, in registry order.
func TestTools(t *testing.T) {
	var want []string
	for _, p := range provider.All {
		if Check(p) == nil {
			want = append(want, p.ID)
		}
	}
	require.NotEmpty(t, want)
	require.Equal(t, want, IDs())
	require.Contains(t, IDs(), "claude-code")
	require.Len(t, Tools(), len(want))
}
