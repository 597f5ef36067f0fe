// Command floor is the floor of the process benchmark: the least a hook
// written in Go can do. It reads its whole payload into memory, as a hook
// must to look at it, and answers {} (no opinion). Any Go shim pays at
// least this much per call: process start, the Go runtime's start-up,
// reading the payload and one write.
package main

import "os"

func main() {
	// os.ReadFile sizes its buffer from stat: a payload redirected from a
	// file is read into one buffer of its size, as hookshim reads it.
	if _, err := os.ReadFile("/dev/stdin"); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
	}
	_, _ = os.Stdout.Write([]byte("{}\n"))
}
