package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMakeHelp checks that `make help` lists every target of the Makefile:
// its rule once missed the ones with a digit in their name (e2e).
func TestMakeHelp(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	src, err := os.ReadFile("../../Makefile")
	require.NoError(t, err)
	var targets []string
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z0-9_.-]+):([^=]|$)`).FindAllStringSubmatch(string(src), -1) {
		if m[1] != ".PHONY" {
			targets = append(targets, m[1])
		}
	}
	require.Contains(t, targets, "e2e")
	require.Contains(t, targets, "dist")

	out, err := exec.Command("make", "-s", "-C", "../..", "help").Output()
	require.NoError(t, err)
	listed := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 1 {
			listed[f[0]] = true
		}
	}
	for _, target := range targets {
		require.True(t, listed[target], "make help does not list %q (give its rule a ## comment):\n%s", target, out)
	}
}
