// Package dedupe makes the handlers run once for one tool call that reaches
// hookshim several times, across processes.
//
// The same tool call can reach hookshim twice: Cursor runs its own
// hooks.json and the .claude/settings.json hooks it imports, and fires both
// preToolUse and beforeShellExecution for one shell command; Copilot and
// VS Code read Claude's file too; a user may install at user and project
// scope. A call is known by its Key: what it is about (the canonical event)
// and the policy that answers it (the matched handlers, the configs' content,
// the handlers' files and trust records), so that a change the user just
// made is never answered from before it. The first call to claim a key runs
// the handlers and publishes what they answered, with its call id; a
// duplicate waits for that and encodes the same answers for its own native
// event. The state is one small file per call in a per-user runtime
// directory, swept after a minute. The package may import the standard
// library, gjson, and the config and event packages; nothing that runs or
// answers a call.
package dedupe

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/private"
	"github.com/tidwall/gjson"
)

// sweepAge is when leftover files are removed.
const sweepAge = time.Minute

// Dir is the per-user directory for claims: the runtime directory, or
// else a per-user directory in memory-backed or temporary storage.
func Dir(getenv func(string) string) string {
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "hookshim", "once")
	}
	base := getenv("TMPDIR")
	if base == "" {
		base = memDir()
	}
	if base == "" {
		base = os.TempDir()
	}
	return filepath.Join(base, "hookshim-"+strconv.Itoa(os.Getuid()), "once")
}

// memDir is a memory-backed directory anyone may create in, if the system
// has one: a claim is created on every call that runs a handler, at the
// cost of a journal entry on a disk-backed directory (see Claim), where
// XDG_RUNTIME_DIR, when set, is tmpfs.
func memDir() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	// Shared like /tmp: world-writable and sticky, so that the per-user
	// directory in it is ours alone.
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() &&
		st.Mode().Perm() == 0o777 && st.Mode()&fs.ModeSticky != 0 {
		return "/dev/shm"
	}
	return ""
}

// Claim is a held or lost claim.
//
// A claim is one file, created exclusively by the winner and kept open
// until the winner writes its handlers' answers into it. One file, not a
// lock and an answer renamed into place: every file created costs a
// journal entry on a disk-backed directory (on ext4 here, a claim went
// from about 0.5 ms to 0.25 ms). The file is a record:
//
//	PID\n               the winner's process id, written as it claims
//	CALL LENGTH\n       appended by Publish, with the answers, in one write
//	ANSWERS             LENGTH bytes: a JSON array
//
// A reader takes the answers only when all LENGTH bytes are there and are
// valid JSON. A winner that is gone without answering (killed while its
// handlers ran), or that could not write its answer whole (a full disk),
// leaves a dead claim: the process id says the first, the length the
// second, and a waiter takes such a claim over and runs the handlers
// itself, rather than wait out its deadline and answer nothing.
type Claim struct {
	path string
	f    *os.File  // held by the winner until Publish
	at   time.Time // when the claim was taken
	Won  bool

	// TookOver says why a lost claim was taken over while waiting (its
	// winner is gone, or left a torn answer); "" when it was not.
	TookOver string
}

// startGrace is how long a claim may hold no process id: the winner writes
// it as soon as it has created the file.
const startGrace = time.Second

// Take tries to claim key for window. When the claim is lost, Wait returns
// the winner's answer.
func Take(dir, key string, window time.Duration) (*Claim, error) {
	if err := private.EnsureDir(dir); err != nil {
		return nil, err
	}
	c := &Claim{path: filepath.Join(dir, key+".claim")}
	for attempt := 0; attempt < 2; attempt++ {
		won, err := c.create()
		if won {
			if rand.IntN(16) == 0 {
				// Leftovers are small and few: sweeping now and then is enough.
				sweep(dir)
			}
			return c, nil
		}
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(c.path)
		if err == nil && time.Since(st.ModTime()) > window {
			// A stale claim from an earlier call with the same key.
			os.Remove(c.path)
			continue
		}
		return c, nil
	}
	return c, nil
}

// create makes the claim file, exclusively, and writes this process's id
// into it. It reports false, with no error, when the file exists.
func (c *Claim) create() (bool, error) {
	c.at = time.Now()
	f, err := private.Open(c.path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := f.Write(append(strconv.AppendInt(nil, int64(os.Getpid()), 10), '\n')); err != nil {
		// A claim without its owner's id would look dead to the others
		// after startGrace: none is better.
		f.Close()
		os.Remove(c.path)
		return false, err
	}
	c.f, c.Won, c.TookOver = f, true, ""
	return true, nil
}

// Publish stores the winner's call id and what its handlers answered (a
// JSON array) in the claim, and gives the claim back its time of taking:
// the window runs from the call, not from its answer, so a call repeated
// on purpose after a slow handler is not taken for a duplicate.
//
// The answer is written at once. When it cannot be written whole (a full
// disk), the claim is removed: the duplicates waiting for it take it over.
func (c *Claim) Publish(call string, answers []byte) error {
	if c.f == nil {
		return errors.New("dedupe: publish without holding the claim")
	}
	if strings.ContainsAny(call, " \n") {
		return errors.New("dedupe: a call id is one word")
	}
	f := c.f
	c.f = nil
	b := make([]byte, 0, len(call)+24+len(answers))
	b = append(append(b, call...), ' ')
	b = append(strconv.AppendInt(b, int64(len(answers)), 10), '\n')
	b = append(b, answers...)
	_, err := f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(c.path)
		return err
	}
	return os.Chtimes(c.path, c.at, c.at)
}

// Release gives the claim up without an answer: the duplicates waiting for
// it take it over and run the handlers themselves. For a winner whose
// handlers were stopped before they answered (hookshim was told to stop),
// whose results say nothing about the call.
func (c *Claim) Release() {
	if c.f == nil {
		return
	}
	c.f.Close()
	c.f = nil
	os.Remove(c.path)
}

// Shared is what the winner of a claim published.
type Shared struct {
	Call    string // the winner's call id (the id its handlers saw in their envelope)
	Answers []byte // its handlers' answers, as published
}

// record is a claim file as read.
type record struct {
	pid    int    // the winner's process id; 0 when not written (yet)
	shared Shared // the answers, when complete
	done   bool   // the answers are all there
	torn   bool   // the answers were written, but not whole
}

func parseRecord(b []byte) record {
	var r record
	line, rest, ok := bytes.Cut(b, []byte{'\n'})
	if !ok {
		return r
	}
	r.pid, _ = strconv.Atoi(string(line))
	if len(rest) == 0 {
		return r // the handlers are running
	}
	head, answers, ok := bytes.Cut(rest, []byte{'\n'})
	call, size, _ := bytes.Cut(head, []byte{' '})
	n, err := strconv.Atoi(string(size))
	switch {
	case !ok || err != nil || len(answers) < n:
		// Being written, or torn: which of the two, the winner's
		// liveness says.
		r.torn = true
	case len(answers) == n && gjson.ValidBytes(answers):
		r.shared, r.done = Shared{Call: string(call), Answers: answers}, true
	default:
		r.torn = true
	}
	return r
}

// Wait polls for the winner's answers until the deadline. When the winner
// is gone without answering — its process has ended and its answer is not
// there whole, or it removed the claim because it could not write it —
// Wait takes the claim over: it returns false with Won set (and TookOver
// saying why), and the caller runs the handlers and publishes.
func (c *Claim) Wait(deadline time.Time) (Shared, bool) {
	for {
		b, err := os.ReadFile(c.path)
		switch {
		case err == nil:
			r := parseRecord(b)
			if r.done {
				return r.shared, true
			}
			if why := dead(r, c.path); why != "" && c.takeOver(b, why) {
				return Shared{}, false
			}
		case errors.Is(err, fs.ErrNotExist):
			// The winner gave its claim up (or it was swept): claim it.
			if won, _ := c.create(); won {
				c.TookOver = "the call it duplicates gave up its claim without answering"
				return Shared{}, false
			}
		}
		if time.Now().After(deadline) {
			return Shared{}, false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// dead says why a claim whose answer is not there will never get it, or ""
// while its winner may still write it.
func dead(r record, path string) string {
	switch {
	case r.pid > 0 && !alive(r.pid):
		if r.torn {
			return fmt.Sprintf("the call it duplicates (process %d) ended with its answer torn", r.pid)
		}
		return fmt.Sprintf("the call it duplicates (process %d) ended without answering", r.pid)
	case r.pid <= 0:
		if st, err := os.Stat(path); err == nil && time.Since(st.ModTime()) > startGrace {
			return "the call it duplicates left its claim without a process id"
		}
	}
	return ""
}

// takeOver replaces the dead claim whose content was seen with a claim of
// this call's. Another waiter may have done it first: then this one waits
// for that one.
func (c *Claim) takeOver(seen []byte, why string) bool {
	if now, err := os.ReadFile(c.path); err != nil || !bytes.Equal(now, seen) {
		return false
	}
	if err := os.Remove(c.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	won, _ := c.create()
	if won {
		c.TookOver = why
	}
	return won
}

func sweep(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > sweepAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
