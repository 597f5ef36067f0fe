//go:build !windows

package run

import "os/exec"

// shellLine does nothing where the shell gets the line as one argument.
func shellLine(*exec.Cmd) {}
