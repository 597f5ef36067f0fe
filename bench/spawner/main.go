// Command spawner is the floor of the process benchmark for a hook that
// runs a handler: the least a hook written in Go can do to run one. It
// reads its payload on stdin, runs the handler with an envelope on the
// handler's stdin, and prints what the handler printed.
//
//	spawner HANDLER ENVELOPE-FILE < payload
//
// Any Go shim that runs a handler as a process pays at least this much:
// its own start, plus creating, feeding and reaping the handler's process
// (a cost the handler measured alone, exec'd in place of the shell, does
// not carry). The envelope is read from a file, already built, so that
// only the running is measured.
package main

import (
	"bytes"
	"os"
	"os/exec"
)

func main() {
	if len(os.Args) != 3 {
		os.Stderr.WriteString("usage: spawner HANDLER ENVELOPE-FILE < payload\n")
		os.Exit(2)
	}
	// The payload in memory, as the floor reads it.
	if _, err := os.ReadFile("/dev/stdin"); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	envelope, err := os.ReadFile(os.Args[2])
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	cmd := exec.Command(os.Args[1])
	cmd.Stdin = bytes.NewReader(envelope)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	_, _ = os.Stdout.Write(out.Bytes())
}
