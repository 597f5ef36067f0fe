package secret

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHints: every kind of secret has a hint, so that the prefilter never
// hides one.
func TestHints(t *testing.T) {
	for _, k := range Kinds {
		found := false
		for _, h := range Hints {
			found = found || strings.Contains(k.RE, strings.ReplaceAll(h, ".", `\.`)) || strings.Contains(k.RE, h[:min(3, len(h))])
		}
		assert.True(t, found, k.Name)
	}
}
