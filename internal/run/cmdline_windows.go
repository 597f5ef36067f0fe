package run

import (
	"os/exec"
	"syscall"
)

// shellLine hands cmd.exe a handler's command line as written
// (cmdExeLine of cmd.Args, argv's words), in place of the one os/exec
// would quote from cmd.Args.
func shellLine(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: cmdExeLine(cmd.Args)}
}
