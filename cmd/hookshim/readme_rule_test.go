package main

import (
	"os/exec"
	"testing"
)

// TestReadmeRule runs the README's rule example as written, in an empty
// directory with an empty home, with this hookshim on PATH, and checks
// that it prints what the README says.
func TestReadmeRule(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("the README's example needs sh")
	}
	runReadmeBlocks(t, "rule", 1, `"type": "rule"`)
}
