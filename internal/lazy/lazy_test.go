package lazy

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRegexp(t *testing.T) {
	re := &Regexp{Expr: `^a+b$`}
	require.True(t, re.Get().MatchString("aab"))
	require.Same(t, re.Get(), re.Get(), "compiled once")
	bad := &Regexp{Expr: `(`}
	require.Panics(t, func() { bad.Get() })
}
