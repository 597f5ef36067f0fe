package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearest(t *testing.T) {
	known := []string{"run", "allow", "shell", "event", "matcher", "file_write"}
	for word, want := range map[string]string{
		"rn":         "run",
		"shel":       "shell",
		"Shell":      "shell",
		"evnet":      "event",
		"matchr":     "matcher",
		"file-write": "file_write",
		"shell":      "", // known: nothing to suggest
		"rm":         "", // a different word
		"x":          "",
		"install":    "",
	} {
		assert.Equal(t, want, Nearest(word, known), word)
	}
}
