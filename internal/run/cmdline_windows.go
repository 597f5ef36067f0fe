package run

import (
	"os/exec"
	"syscall"
)

// shellLine hands cmd.exe a handler's command line as written
// (cmdExeLine), in place of the one os/exec would quote from cmd.Args.
func shellLine(cmd *exec.Cmd, line string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: cmdExeLine(line)}
}
