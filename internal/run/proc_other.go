//go:build !unix

package run

import (
	"os"
	"os/exec"
)

func setGroup(cmd *exec.Cmd) {}

func detach(cmd *exec.Cmd) {}

// killGroup does nothing where handlers have no group of their own.
func killGroup(cmd *exec.Cmd) {}

// exitedByItself cannot tell here: a process killed at its deadline ends
// with an exit code, as one that exited does. The deadline decides.
func exitedByItself(*os.ProcessState) bool { return false }
