//go:build unix

package run

import (
	"os"
	"os/exec"
	"syscall"
)

// setGroup puts the handler in a process group of its own and makes the
// context's cancellation kill the whole group, children included. Should
// hookshim end before it can do so, the handler itself is killed where
// the system allows (deathSignal).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	deathSignal(cmd.SysProcAttr)
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// detach starts an async handler in a session of its own, so that it
// outlives hookshim and the tool's signals to hookshim's group.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// killGroup kills what is left of a finished handler's group: children it
// started and did not wait for, unless they left it (setsid). The group's
// id cannot be given to a new process while any member lives, so this
// reaches no one else; an empty group is ESRCH. One system call, on every
// handler run.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// exitedByItself reports whether the handler's process ended by exiting,
// not by a signal (the kill at its deadline, or at a signal to hookshim).
func exitedByItself(ps *os.ProcessState) bool {
	return ps != nil && ps.Exited()
}
