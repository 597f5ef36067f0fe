//go:build unix

package policy

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO named like a secret file or a repository must never be opened for
// reading: with no writer, the read would block the call forever.
func TestReadHeadRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, ".npmrc")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := readHead(fifo, 64); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, errNotRegular) {
			t.Fatalf("readHead(FIFO) = %v, want errNotRegular", err)
		}
	case <-time.After(time.Minute): // a hang, not a slow machine
		t.Fatal("readHead blocked on a FIFO")
	}
	if _, err := readHead(dir, 64); !errors.Is(err, errNotRegular) {
		t.Fatalf("readHead(folder) = %v, want errNotRegular", err)
	}
	reg := filepath.Join(dir, "HEAD")
	if err := os.WriteFile(reg, []byte("ref: refs/heads/main\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := readHead(reg, 4); err != nil || s != "ref:" {
		t.Fatalf("readHead(regular) = %q, %v", s, err)
	}
}
