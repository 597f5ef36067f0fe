package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmeRule runs the README's rule example as written, in an empty
// directory with an empty home, with this hookshim on PATH, and checks
// that it prints what the README says.
func TestReadmeRule(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("the README's example needs sh")
	}
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	scripts, outputs := fencedBlocks(t, string(readme), "rule")
	require.NotEmpty(t, scripts, "README.md lost its rule example")
	require.NotEmpty(t, outputs)
	script := strings.Join(scripts, "")
	require.Contains(t, script, `"type": "rule"`)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	work := filepath.Join(dir, "work")
	require.NoError(t, os.Mkdir(home, 0o755))
	require.NoError(t, os.Mkdir(work, 0o755))
	cmd := exec.Command("sh", "-e", "-c", script)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C.UTF-8"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "README rule example failed:\n%s\nstderr:\n%s", script, stderr.String())
	for _, want := range outputs {
		require.Contains(t, stdout.String(), strings.TrimSpace(want), "README rule example printed:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	require.NotContains(t, stderr.String(), "error")
}
