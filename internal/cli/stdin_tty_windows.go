package cli

import (
	"os"
	"syscall"
)

// isTerminal reports whether f is a console (NUL is a character device too,
// and is not one).
func isTerminal(f *os.File) bool {
	var mode uint32
	return syscall.GetConsoleMode(syscall.Handle(f.Fd()), &mode) == nil
}
