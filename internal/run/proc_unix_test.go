//go:build unix

package run

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/stretchr/testify/require"
)

// alive reports whether pid runs (a zombie does not: it is dead and only
// waits for whoever adopted it to reap it; nor does a process whose /proc
// entry went away after the kill -0, as it was being reaped).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return true // no /proc: the kill -0 is all there is to know
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, after, ok := strings.Cut(string(stat), ") ")
	return ok && !strings.HasPrefix(after, "Z") && !strings.HasPrefix(after, "X")
}

// pids reads the process ids a handler wrote into file, one a line,
// waiting until there are n.
func pids(t *testing.T, file string, n int) []int {
	t.Helper()
	var out []int
	require.Eventually(t, func() bool {
		b, _ := os.ReadFile(file)
		out = out[:0]
		for _, f := range strings.Fields(string(b)) {
			p, err := strconv.Atoi(f)
			require.NoError(t, err)
			out = append(out, p)
		}
		return len(out) >= n
	}, hang, 10*time.Millisecond)
	return out
}

func requireGone(t *testing.T, ps []int) {
	t.Helper()
	require.Eventually(t, func() bool {
		for _, p := range ps {
			if alive(p) {
				return false
			}
		}
		return true
	}, hang, 10*time.Millisecond, "left running: %v", ps)
}

// Children a handler leaves behind are killed with its group once its
// answer is read.
func TestLeftoverChildrenKilled(t *testing.T) {
	h := hook(t, `i=0; while [ $i -lt 20 ]; do sleep 30 >/dev/null 2>&1 & echo $! >>pids; i=$((i+1)); done; echo '{}'`)
	res := (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(100))
	require.NoError(t, res[0].Err)
	ps := pids(t, filepath.Join(h.Dir, "pids"), 20)
	requireGone(t, ps)
}

// An async handler is meant to outlive the call: it runs in a session of
// its own, and neither it nor its children are killed.
func TestAsyncOutlivesTheCall(t *testing.T) {
	h := hook(t, `sleep 30 >/dev/null 2>&1 & echo $! >pids`)
	h.Async = true
	res := (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(100))
	require.NoError(t, res[0].Err)
	ps := pids(t, filepath.Join(h.Dir, "pids"), 1)
	t.Cleanup(func() { _ = syscall.Kill(ps[0], syscall.SIGKILL) })
	time.Sleep(300 * time.Millisecond)
	require.True(t, alive(ps[0]))
}

// SIGTERM or SIGINT to hookshim kills the groups of the handlers it waits
// for, children included, and Run returns at once with each handler
// failed; once it returned, the signals have their default action again.
func TestSignalStopsHandlers(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			a := hook(t, `sleep 600 >/dev/null 2>&1 & echo $! >>pids; echo $$ >>pids; sleep 600`)
			b := hook(t, `sleep 600 & echo $! >>pids; echo $$ >>pids; wait`)
			done := make(chan []Result)
			go func() {
				done <- (&Runner{}).Run(context.Background(), []*config.Hook{a, b}, pieces(100))
			}()
			ps := append(pids(t, filepath.Join(a.Dir, "pids"), 2), pids(t, filepath.Join(b.Dir, "pids"), 2)...)
			res := signalUntilReturned(t, sig, done)
			for _, r := range res {
				e, ok := r.Err.(*Error)
				require.True(t, ok, "%v", r.Err)
				require.Equal(t, Stopped, e.Kind)
				require.Contains(t, e.Msg, "stopped: ")
				require.Contains(t, e.Msg, "signal received; its process group was killed")
			}
			requireGone(t, ps)
		})
	}
}

// signalUntilReturned sends sig to this process until Run returns its
// results on done. The watch is set up a moment after the last handler has
// started (watch), later on a loaded machine, and only the watch makes Run
// return before the handlers end (they hang): it is signalled again until
// it does, for up to a minute. The test's own Notify keeps a signal sent
// before the watch is up from ending the test binary.
func signalUntilReturned(t *testing.T, sig syscall.Signal, done <-chan []Result) []Result {
	t.Helper()
	mine := make(chan os.Signal, 1)
	signal.Notify(mine, sig)
	defer signal.Stop(mine)
	again := time.NewTicker(100 * time.Millisecond)
	defer again.Stop()
	bound := time.After(hang)
	for {
		require.NoError(t, syscall.Kill(os.Getpid(), sig))
		select {
		case res := <-done:
			return res
		case <-again.C:
		case <-bound:
			t.Fatal("Run did not return")
		}
	}
}

// The watch is set up once the last handler has started; when that one
// cannot start, the others are watched all the same (else Run would wait
// for them).
func TestSignalStopsHandlersWhenLastDidNotStart(t *testing.T) {
	a := hook(t, `echo $$ >>pids; sleep 600`)
	b := hook(t, filepath.Join(t.TempDir(), "no-such-handler"))
	done := make(chan []Result)
	go func() {
		done <- (&Runner{}).Run(context.Background(), []*config.Hook{a, b}, pieces(100))
	}()
	ps := pids(t, filepath.Join(a.Dir, "pids"), 1)
	res := signalUntilReturned(t, syscall.SIGTERM, done)
	e, ok := res[0].Err.(*Error)
	require.True(t, ok, "%v", res[0].Err)
	require.Equal(t, Stopped, e.Kind)
	require.Error(t, res[1].Err)
	requireGone(t, ps)
}
