package dedupe

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestFirstTakerWinsAndOthersGetItsAnswer(t *testing.T) {
	dir := t.TempDir()
	key := "k1"
	first, err := Take(dir, key, Window)
	require.NoError(t, err)
	require.True(t, first.Won)

	second, err := Take(dir, key, Window)
	require.NoError(t, err)
	require.False(t, second.Won)

	_, ok := second.Wait(time.Now().Add(20 * time.Millisecond))
	require.False(t, ok, "nothing is published yet: the wait must end at its deadline")

	answer := []byte(`[{"handler":"guard","decision":"deny","reason":"no"}]`)
	done := make(chan Shared)
	go func() {
		sh, _ := second.Wait(time.Now().Add(time.Minute)) // a bound for a hang only
		done <- sh
	}()
	require.NoError(t, first.Publish("call-1", answer))
	require.Equal(t, Shared{Call: "call-1", Answers: answer}, <-done)

	require.Error(t, first.Publish("call-1", answer), "a claim is published once")
	require.Error(t, second.Publish("call-2", answer), "only the winner publishes")
}

// A reader may see the answer while it is being written: a prefix of a
// JSON array is never taken for the answer.
func TestWaitTakesOnlyAWholeAnswer(t *testing.T) {
	dir := t.TempDir()
	key := "k"
	first, err := Take(dir, key, Window)
	require.NoError(t, err)
	second, err := Take(dir, key, Window)
	require.NoError(t, err)

	answers := `[{"handler":"guard","decision":"allow"}]`
	answer := strconv.Itoa(os.Getpid()) + "\ncall-1 " + strconv.Itoa(len(answers)) + "\n" + answers
	for n := 1; n < len(answer); n++ {
		require.NoError(t, os.WriteFile(first.path, []byte(answer[:n]), 0o600))
		_, ok := second.Wait(time.Now())
		require.False(t, ok, "prefix %q taken for the answer", answer[:n])
	}
	require.NoError(t, os.WriteFile(first.path, []byte(answer), 0o600))
	sh, ok := second.Wait(time.Now())
	require.True(t, ok)
	require.Equal(t, "call-1", sh.Call)
	require.Equal(t, `[{"handler":"guard","decision":"allow"}]`, string(sh.Answers))
}

// The window runs from the call, not from its answer: after a slow
// handler, the same call repeated on purpose runs again.
func TestWindowRunsFromTheClaimNotTheAnswer(t *testing.T) {
	dir := t.TempDir()
	key := "k"
	first, err := Take(dir, key, Window)
	require.NoError(t, err)
	taken := time.Now().Add(-2 * DigestWindow)
	first.at = taken // as if the handlers had run for a while
	require.NoError(t, first.Publish("c", []byte(`[]`)))

	st, err := os.Stat(first.path)
	require.NoError(t, err)
	require.WithinDuration(t, taken, st.ModTime(), time.Second)

	again, err := Take(dir, key, DigestWindow)
	require.NoError(t, err)
	require.True(t, again.Won, "a claim older than its window is stale")
	require.NoError(t, again.Publish("c", []byte(`[]`)))

	dup, err := Take(dir, key, DigestWindow)
	require.NoError(t, err)
	require.False(t, dup.Won, "a claim inside its window stands")
}

func TestOneWinnerAmongManyTakers(t *testing.T) {
	dir := t.TempDir()
	key := "k"
	const n = 32
	var wg sync.WaitGroup
	won := make(chan *Claim, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := Take(dir, key, Window)
			if err == nil && c.Won {
				won <- c
			}
		}()
	}
	wg.Wait()
	close(won)
	var winners []*Claim
	for c := range won {
		winners = append(winners, c)
	}
	require.Len(t, winners, 1)
	require.NoError(t, winners[0].Publish("c", []byte(`[]`)))
}

func TestDir(t *testing.T) {
	env := map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"}
	getenv := func(k string) string { return env[k] }
	require.Equal(t, "/run/user/1000/hookshim/once", Dir(getenv))

	uid := strconv.Itoa(os.Getuid())
	env = map[string]string{"TMPDIR": "/var/tmp/me"}
	require.Equal(t, "/var/tmp/me/hookshim-"+uid+"/once", Dir(getenv), "an explicit TMPDIR is the user's choice")

	env = map[string]string{}
	want := filepath.Join(os.TempDir(), "hookshim-"+uid, "once")
	if memDir() != "" {
		want = "/dev/shm/hookshim-" + uid + "/once"
	}
	require.Equal(t, want, Dir(getenv))
}

func TestTakeRefusesADirectoryOthersCanWrite(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permissions")
	}
	dir := filepath.Join(t.TempDir(), "once")
	require.NoError(t, os.Mkdir(dir, 0o700))
	require.NoError(t, os.Chmod(dir, 0o777))
	_, err := Take(dir, "k", Window)
	require.ErrorContains(t, err, "only this user can write in")

	require.NoError(t, os.Chmod(dir, 0o700))
	c, err := Take(dir, "k", Window)
	require.NoError(t, err)
	require.True(t, c.Won)
}

func TestSweepRemovesOnlyOldClaims(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.claim")
	fresh := filepath.Join(dir, "fresh.claim")
	require.NoError(t, os.WriteFile(old, nil, 0o600))
	require.NoError(t, os.WriteFile(fresh, nil, 0o600))
	past := time.Now().Add(-2 * sweepAge)
	require.NoError(t, os.Chtimes(old, past, past))
	sweep(dir)
	require.NoFileExists(t, old)
	require.FileExists(t, fresh)
}

// BenchmarkClaim is what a call that runs a handler spends on its claim:
// take it, publish into it; then the claim is removed, as the sweep
// does later, so that the directory stays as small as it is in use (a
// large one would time the sweep). Run it on the file system users have
// (TMPDIR): a disk-backed directory costs many times tmpfs.
func BenchmarkClaim(b *testing.B) {
	dir := b.TempDir()
	answer := []byte(`[{"handler":"guard-1","decision":"deny","reason":"rm -rf / is not allowed","exit_code":0,"duration_ms":3}]`)
	for i := 0; b.Loop(); i++ {
		c, err := Take(dir, strconv.Itoa(i), Window)
		if err != nil || !c.Won {
			b.Fatal(err)
		}
		if err := c.Publish("0f8fad5b-d9cb-469f-a165-70867728950e", answer); err != nil {
			b.Fatal(err)
		}
		os.Remove(c.path)
	}
}

// deadPID is the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, cmd.Run())
	return cmd.ProcessState.Pid()
}

// A winner that is gone without answering (killed while its handlers ran,
// or ended with its answer torn by a full disk) leaves a dead claim: a
// waiter takes it over at once, and runs the handlers itself.
func TestWaitTakesOverADeadClaim(t *testing.T) {
	answers := `[{"handler":"guard","decision":"deny"}]`
	for name, content := range map[string]string{
		"killed while running": "%d\n",
		"torn answer":          "%d\ncall-1 " + strconv.Itoa(len(answers)) + "\n" + answers[:10],
		"torn header":          "%d\ncall-1 4",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "k.claim")
			require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf(content, deadPID(t))), 0o600))
			c, err := Take(dir, "k", Window)
			require.NoError(t, err)
			require.False(t, c.Won)

			// A waiter that did not see the claim dead would wait out
			// its deadline without holding the claim.
			_, ok := c.Wait(time.Now().Add(time.Minute))
			require.False(t, ok)
			require.True(t, c.Won, "the waiter holds the claim now: a dead claim is seen at once")
			require.Contains(t, c.TookOver, "ended")

			// It publishes like any winner, and the next duplicate gets that.
			require.NoError(t, c.Publish("call-2", []byte(answers)))
			dup, err := Take(dir, "k", Window)
			require.NoError(t, err)
			sh, ok := dup.Wait(time.Now().Add(time.Second))
			require.True(t, ok)
			require.Equal(t, Shared{Call: "call-2", Answers: []byte(answers)}, sh)
		})
	}
}

// While the winner lives, a claim without its answer is one being
// answered, whatever it holds so far: the waiter waits.
func TestWaitDoesNotTakeOverALiveClaim(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.claim")
	mine := strconv.Itoa(os.Getpid())
	for _, content := range []string{mine + "\n", mine + "\ncall-1 40\n[{", ""} {
		require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
		c, err := Take(dir, "k", Window)
		require.NoError(t, err)
		_, ok := c.Wait(time.Now().Add(50 * time.Millisecond))
		require.False(t, ok)
		require.False(t, c.Won, "claim %q taken over", content)
	}

	// A claim left without a process id past the moment its winner
	// writes one is dead.
	require.NoError(t, os.WriteFile(path, nil, 0o600))
	past := time.Now().Add(-2 * startGrace)
	require.NoError(t, os.Chtimes(path, past, past))
	c, err := Take(dir, "k", Window)
	require.NoError(t, err)
	_, ok := c.Wait(time.Now().Add(time.Second))
	require.False(t, ok)
	require.True(t, c.Won)
}

// A winner that cannot write its answer whole gives its claim up, and the
// waiter takes it over.
func TestPublishThatFailsGivesTheClaimUp(t *testing.T) {
	dir := t.TempDir()
	first, err := Take(dir, "k", Window)
	require.NoError(t, err)
	second, err := Take(dir, "k", Window)
	require.NoError(t, err)

	// A write that fails, as on a full disk.
	ro, err := os.Open(first.path)
	require.NoError(t, err)
	first.f.Close()
	first.f = ro
	require.Error(t, first.Publish("call-1", []byte(`[]`)))
	require.NoFileExists(t, first.path)

	_, ok := second.Wait(time.Now().Add(time.Second))
	require.False(t, ok)
	require.True(t, second.Won)
	require.Contains(t, second.TookOver, "gave up its claim")
}
