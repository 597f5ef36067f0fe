//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The reads a hook call really makes: a pipe (as tools run hooks) and a
// file (as shells redirect one).

// pipe is a blocking pipe, as a tool hands one over (os.Pipe's are
// non-blocking).
func pipe(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	var fds [2]int
	require.NoError(t, syscall.Pipe(fds[:]))
	r, w := os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1")
	t.Cleanup(func() { r.Close(); w.Close() })
	require.False(t, nonblocking(t, r))
	return r, w
}

func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	flags, err := fcntlGetfl(f)
	require.NoError(t, err)
	return flags&syscall.O_NONBLOCK != 0
}

func TestReadPipeUntilClosed(t *testing.T) {
	r, w := pipe(t)
	doc := `{"hook_event_name":"PostToolUse","tool_response":"` + strings.Repeat("x", 1<<20) + `"}`
	go func() { w.WriteString(doc); w.Close() }()
	kept := len(keptStdin)
	got, err := readPayload(r, time.Time{})
	require.NoError(t, err)
	require.Equal(t, doc, string(got))
	require.Len(t, keptStdin, kept+1, "read through the poller")
	require.False(t, nonblocking(t, r), "the pipe's blocking mode is restored")
}

func TestReadPipeThatNeverCloses(t *testing.T) {
	r, w := pipe(t)
	_, err := w.WriteString(`{"hook_event_name":"PreToolUse"}`)
	require.NoError(t, err)
	start := time.Now()
	got, err := readPayload(r, time.Time{})
	require.NoError(t, err)
	require.Equal(t, `{"hook_event_name":"PreToolUse"}`, string(got))
	require.Less(t, time.Since(start), StdinTimeout/2)
	require.False(t, nonblocking(t, r))
}

func TestReadPipeIncompleteTimesOut(t *testing.T) {
	old := StdinTimeout
	StdinTimeout = 300 * time.Millisecond
	defer func() { StdinTimeout = old }()
	r, w := pipe(t)
	_, err := w.WriteString(`{"hook_event_name":`)
	require.NoError(t, err)
	_, err = readPayload(r, time.Time{})
	require.ErrorContains(t, err, "no complete payload on stdin after 300ms")
}

// A payload that arrives in pieces, slower than the quiet period only
// while it is incomplete, is still read whole.
func TestReadPipeInPieces(t *testing.T) {
	r, w := pipe(t)
	go func() {
		w.WriteString(`{"hook_event_name":`)
		time.Sleep(2 * StdinQuiet)
		w.WriteString(`"Stop"}`)
	}()
	got, err := readPayload(r, time.Time{})
	require.NoError(t, err)
	require.Equal(t, `{"hook_event_name":"Stop"}`, string(got))
}

// A stdin that is non-blocking already is read as it is, and left so.
func TestReadNonblockingPipe(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	go func() { w.WriteString(`{"a":1}`); w.Close() }()
	got, err := readPayload(r, time.Time{})
	require.NoError(t, err)
	require.Equal(t, `{"a":1}`, string(got))
	require.True(t, nonblocking(t, r))
}

func TestReadFile(t *testing.T) {
	doc := `{"tool_response":"` + strings.Repeat("y", 200<<10) + `"}`
	path := filepath.Join(t.TempDir(), "payload.json")
	require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	got, err := readPayload(f, time.Time{})
	require.NoError(t, err)
	require.Equal(t, doc, string(got))
}

// /dev/null and a pipe closed before its first byte are "empty", not "a
// terminal": what someone running hookshim by hand needs to be told.
func TestReadNothing(t *testing.T) {
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	require.False(t, isTerminal(null))
	_, err = readPayload(null, time.Time{})
	require.ErrorIs(t, err, errEmpty)

	r, w := pipe(t)
	w.Close()
	_, err = readPayload(r, time.Time{})
	require.ErrorIs(t, err, errEmpty)

	path := filepath.Join(t.TempDir(), "empty.json")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	_, err = readPayload(f, time.Time{})
	require.ErrorIs(t, err, errEmptyFile)
}

func fcntlGetfl(f *os.File) (int, error) {
	var flags int
	c, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	err2 := c.Control(func(fd uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		if e != 0 {
			err = e
		}
		flags = int(r)
	})
	if err2 != nil {
		return 0, err2
	}
	return flags, err
}

// A call that must answer sooner than StdinTimeout (--timeout 3) stops
// waiting for its payload at its own deadline.
func TestReadPipeIncompleteStopsAtTheCallsDeadline(t *testing.T) {
	r, w := pipe(t)
	_, err := w.WriteString(`{"hook_event_name":`)
	require.NoError(t, err)
	start := time.Now()
	_, err = readPayload(r, start.Add(400*time.Millisecond))
	require.ErrorContains(t, err, "no complete payload on stdin after 400ms")
	require.Less(t, time.Since(start), StdinTimeout/2, "not the full StdinTimeout")
}
