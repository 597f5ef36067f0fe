//go:build amd64 || arm64

package stack

// Reserve grows the calling goroutine's stack to 32 KiB, unless it is
// already as large. It does nothing else.
//
// It is assembly because its only work is its frame: 24 KiB that the
// runtime must fit before the first instruction runs. A Go function with
// such a frame would also have to clear it, touching every page.
func Reserve()
