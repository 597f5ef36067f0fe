//go:build windows

package e2e

import (
	"os"
	"os/exec"
)

// Windows has no process groups to kill as one: a client is killed alone
// (the end-to-end tests run on Unix; this keeps the package compiling).
func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
