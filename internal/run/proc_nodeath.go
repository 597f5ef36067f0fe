//go:build unix && !linux

package run

import "syscall"

// deathSignal: no parent-death signal here; a handler outlives a hookshim
// ended by a signal before the watch is set up.
func deathSignal(*syscall.SysProcAttr) {}
