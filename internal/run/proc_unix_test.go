//go:build unix

package run

import (
	"context"
	"errors"
	"os"
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
// waits for whoever adopted it to reap it).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		if _, after, ok := strings.Cut(string(stat), ") "); ok && strings.HasPrefix(after, "Z") {
			return false
		}
	}
	return true
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
	}, 5*time.Second, 10*time.Millisecond)
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
	}, 2*time.Second, 10*time.Millisecond, "left running: %v", ps)
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
			a := hook(t, `sleep 30 >/dev/null 2>&1 & echo $! >>pids; echo $$ >>pids; sleep 30`)
			b := hook(t, `sleep 30 & echo $! >>pids; echo $$ >>pids; wait`)
			done := make(chan []Result)
			start := time.Now()
			go func() {
				done <- (&Runner{}).Run(context.Background(), []*config.Hook{a, b}, pieces(100))
			}()
			ps := append(pids(t, filepath.Join(a.Dir, "pids"), 2), pids(t, filepath.Join(b.Dir, "pids"), 2)...)
			// The watch is set up once the last handler has started
			// (watch): give a loaded machine time to set it up.
			time.Sleep(100 * time.Millisecond)
			require.NoError(t, syscall.Kill(os.Getpid(), sig))
			var res []Result
			select {
			case res = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return")
			}
			require.Less(t, time.Since(start), 5*time.Second)
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

// The watch is set up once the last handler has started; when that one
// cannot start, the others are watched all the same. (Without the watch,
// the SIGTERM below ends the test binary.)
func TestSignalStopsHandlersWhenLastDidNotStart(t *testing.T) {
	a := hook(t, `echo $$ >>pids; sleep 30`)
	b := hook(t, filepath.Join(t.TempDir(), "no-such-handler"))
	done := make(chan []Result)
	go func() {
		done <- (&Runner{}).Run(context.Background(), []*config.Hook{a, b}, pieces(100))
	}()
	ps := pids(t, filepath.Join(a.Dir, "pids"), 1)
	time.Sleep(100 * time.Millisecond)
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	var res []Result
	select {
	case res = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
	e, ok := res[0].Err.(*Error)
	require.True(t, ok, "%v", res[0].Err)
	require.Equal(t, Stopped, e.Kind)
	require.Error(t, res[1].Err)
	requireGone(t, ps)
}
