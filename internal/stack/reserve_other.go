//go:build !amd64 && !arm64

package stack

// Reserve does nothing on this architecture; the stack grows on demand.
func Reserve() {}
