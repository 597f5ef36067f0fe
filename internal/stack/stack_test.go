package stack

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReserveGrowsTheStack runs Reserve in a child process whose
// goroutines may not grow past 16 KiB: the runtime must refuse its frame.
// Were Reserve to do nothing, the child would print "ok".
func TestReserveGrowsTheStack(t *testing.T) {
	if os.Getenv("STACK_TEST_CHILD") == "1" {
		debug.SetMaxStack(16 << 10)
		Reserve()
		os.Stdout.WriteString("ok")
		os.Exit(0)
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("Reserve does nothing on " + runtime.GOARCH)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReserveGrowsTheStack$")
	cmd.Env = append(os.Environ(), "STACK_TEST_CHILD=1")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the child should have died: %s", out)
	assert.Contains(t, string(out), "stack exceeds 16384-byte limit")
}

// TestReserveReturns checks that a goroutine goes on normally after it.
func TestReserveReturns(t *testing.T) {
	done := make(chan int)
	go func() {
		Reserve()
		done <- fib(20)
	}()
	assert.Equal(t, 6765, <-done)
}

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}
