//go:build unix

package config

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// A FIFO in a config's place neither blocks nor is read.
func TestReadFileMaxFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(p, 0o600))
	_, err := ReadFileMax(p, 100)
	require.Error(t, err)
}
