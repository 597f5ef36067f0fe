package run

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/stretchr/testify/require"
)

func hook(t *testing.T, command string) *config.Hook {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the handlers here are sh scripts")
	}
	return &config.Hook{Name: "h", Command: command, Dir: t.TempDir(), Timeout: hang, Blocking: true}
}

// hang is the timeout of the handlers here that are expected to answer:
// reached only when something hangs, never by a slow start on a loaded
// machine.
const hang = time.Minute

// pieces splits n bytes into a few pieces, as normalize.EnvelopeParts does.
func pieces(n int) [][]byte {
	b := bytes.Repeat([]byte("x"), n)
	return [][]byte{b[:10], b[10 : n/2], b[n/2:]}
}

// A large envelope reaches the handler whole, through the pipe hookshim
// sizes itself, and a small one through os/exec's: both paths.
func TestEnvelopeArrivesWhole(t *testing.T) {
	h := hook(t, `n=$(wc -c | tr -d ' '); printf '{"decision":"allow","reason":"%s"}' "$n"`)
	for _, n := range []int{100, bigEnvelope + 1, 3 << 20} {
		res := (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(n))
		require.NoError(t, res[0].Err, "%d bytes", n)
		require.Equal(t, strconv.Itoa(n), res[0].Output.Reason, "%d bytes", n)
	}
}

// A handler that answers without reading a large envelope is not held up
// by the bytes it left unread, nor is hookshim (held up, it would time out).
func TestUnreadEnvelope(t *testing.T) {
	h := hook(t, `echo '{"decision":"deny","reason":"no"}'`)
	res := (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(8<<20))
	require.NoError(t, res[0].Err)
	require.False(t, res[0].TimedOut)
	require.Equal(t, "no", res[0].Output.Reason)
}

// A child left behind holding stdin open, without reading it, does not
// keep hookshim past the handler's exit and the wait delay: Run returns
// long before the child would end.
func TestLeftoverChildHoldsTheEnvelope(t *testing.T) {
	h := hook(t, `sleep 120 <&0 >/dev/null 2>&1 & echo '{"decision":"allow"}'`)
	start := time.Now()
	res := (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(8<<20))
	require.NoError(t, res[0].Err)
	require.Less(t, time.Since(start), hang)
}

// A handler that exited with its answer has answered, though its deadline
// passed while hookshim waited (WaitDelay) for a child it left holding
// its stdout. Tried again while a loaded machine does not let the handler
// exit before its deadline at all, which is another case.
func TestAnswerBeforeTheDeadlineStands(t *testing.T) {
	h := hook(t, `sleep 600 & echo '{"decision":"deny","reason":"in time"}'`)
	h.Timeout = WaitDelay - 50*time.Millisecond
	for try := 1; ; try++ {
		res := (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(100))
		if res[0].Exit != 0 && try < 50 {
			continue // killed before it exited
		}
		require.NoError(t, res[0].Err, "try %d", try)
		require.False(t, res[0].TimedOut)
		require.Equal(t, "in time", res[0].Output.Reason)
		return
	}
}

// A handler past its deadline is killed with its group, while hookshim is
// still writing its envelope: Run returns long before the handler would.
func TestTimeoutWhileFeeding(t *testing.T) {
	h := hook(t, `sleep 600`)
	h.Timeout = 300 * time.Millisecond
	start := time.Now()
	res := (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(8<<20))
	require.True(t, res[0].TimedOut)
	require.Less(t, time.Since(start), hang)
}

// A NUL in a value (from a payload's session_id or cwd, or a config)
// becomes U+FFFD: with it, no handler could start.
func TestEnvironNUL(t *testing.T) {
	base := []string{"A=1", "HOOKSHIM_SESSION_ID=s\x00x"}
	env := environ(base, []string{"B=\x00"})
	require.Equal(t, []string{"A=1", "HOOKSHIM_SESSION_ID=s\uFFFDx", "B=\uFFFD"}, env)
	require.Equal(t, "HOOKSHIM_SESSION_ID=s\x00x", base[1], "the runner's own env is not changed")

	h := hook(t, `printf '{"reason":"%s"}' "$HOOKSHIM_SESSION_ID"`)
	res := (&Runner{Env: base}).Run(context.Background(), []*config.Hook{h}, pieces(100))
	require.NoError(t, res[0].Err)
	require.Equal(t, "s\uFFFDx", res[0].Output.Reason)
}

// A handler that prints past the cap is stopped there: hookshim neither
// reads nor keeps the rest, and the handler fails, whichever stream it
// floods and whether or not it minds a closed pipe. The floods never end:
// a handler not stopped would time out.
func TestOutputCap(t *testing.T) {
	for _, c := range []struct{ name, command, stream string }{
		{"stdout, endless", `tr '\0' a </dev/zero`, "stdout"},
		{"stderr, endless", `tr '\0' a </dev/zero >&2; echo '{}'`, "stderr"},
		{"ignores SIGPIPE", `trap '' PIPE; while :; do echo '{"decision":"allow"}'; done`, "stdout"},
		{"5 MB answer", `printf '{"decision":"allow","reason":"'; head -c 5000000 /dev/zero | tr '\0' a; printf '"}'`, "stdout"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := hook(t, c.command)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res := (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(100))
			runtime.ReadMemStats(&after)
			e, ok := res[0].Err.(*Error)
			require.True(t, ok, "%v", res[0].Err)
			require.Equal(t, Failed, e.Kind)
			require.Contains(t, e.Msg, "printed more than 1048576 bytes on "+c.stream)
			require.True(t, res[0].Output.Empty(), "its answer is not read")
			require.False(t, res[0].TimedOut)
			require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "allocated")
		})
	}
}
