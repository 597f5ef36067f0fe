//go:build unix

package e2e

import (
	"os/exec"
	"syscall"
)

// ownGroup starts a client in a process group of its own, so that what it
// leaves running can be killed with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
}

// killGroup kills a client started by ownGroup and its whole group.
func killGroup(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// killPid kills one process left running.
func killPid(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
