package run

import "syscall"

// deathSignal has the kernel kill the handler when hookshim ends without
// killing it, as on a signal that arrives before the watch is set up (see
// watch). The "parent" is the thread that started it: Go's threads live
// as long as the process, as none is locked to a goroutine here.
func deathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
